/** A rendered mail: every platform mail has an HTML and a plain-text body. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}
