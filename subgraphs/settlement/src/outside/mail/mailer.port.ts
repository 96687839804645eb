/** The e-mail port is the platform's (lens's low-balance alert uses it too). */
export {
  MailDeliveryError,
  messageIdFor,
  type Mailer,
  type OutgoingMail,
  type SentMail,
} from '@campaign/platform';
