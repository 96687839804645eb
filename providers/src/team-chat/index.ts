export {
  startTeamChatSimulator,
  type ChatMessage,
  type RunningTeamChatSimulator,
  type TeamChatSimulatorOptions,
} from './server.js';
