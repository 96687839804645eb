export {
  DEFAULT_EPOCH_SECONDS,
  DEFAULT_SLOW_DELAY_MS,
  startSocialUpstreamSimulator,
  type RunningSocialUpstreamSimulator,
  type SocialUpstreamSimulatorOptions,
} from './server.js';
export { handleOfId, idOfHandle, scenarioOf, type Scenario } from './ids.js';
