/** The SMTP adapter is the platform's (lens's low-balance alert uses it too). */
export { SmtpMailer, type SmtpMailerOptions } from '@campaign/platform';
