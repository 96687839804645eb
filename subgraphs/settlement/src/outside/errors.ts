/** The outside-system error is the platform's (lens's e-mail uses it too). */
export { OutsideSystemError, type OutsideSystem } from '@campaign/platform';
