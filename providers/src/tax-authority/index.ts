export {
  startTaxAuthoritySimulator,
  STATUS_PATH,
  type ReceivedStatusRequest,
  type RunningTaxAuthoritySimulator,
  type TaxAuthoritySimulatorOptions,
} from './server.js';
export { NOT_REGISTERED_MESSAGE, simulatedStatus, type NtsStatusEntry } from './status.js';
