/** Outgoing mail's settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { rootDomain } from '../../kernel/config/platform-settings';
import { optionalText, settingsGroup, text } from '../../kernel/config/settings';

export const mailSettings = settingsGroup('mail', {
  smtpUrl: optionalText('SMTP_URL', 'Outgoing mail server, e.g. `smtp://user:pw@mail.example.com:587` (nodemailer URL; `smtps://` for TLS on connect). Mails are queued and retried. Unset: each mail is written to `DATA_DIR/outbox` as `.eml` plus a `.json` summary, and logged.'),
  mailFrom: text('MAIL_FROM', { default: (get) => `Mandi <no-reply@${get(rootDomain)}>`, shown: '`Mandi <no-reply@$ROOT_DOMAIN>`' }, 'Sender of platform mails.'),
});
