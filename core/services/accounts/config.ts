/** The links in invitation and verification mails (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { appUrl } from '../../kernel/config/platform-settings';
import { int, settingsGroup, text, withoutTrailingSlash } from '../../kernel/config/settings';

export const accountSettings = settingsGroup('accounts', {
  invitationUrl: text('INVITATION_URL', { default: (get) => `${get(appUrl)}/api/v1/invitations`, shown: '`$APP_URL/api/v1/invitations`', map: withoutTrailingSlash }, 'Base of the link in invitation mails (`<base>/<token>`). A web client that shows invitations itself (and calls the API) sets its own page.'),
  emailVerificationTtlSeconds: int('EMAIL_VERIFICATION_TTL_SECONDS', { default: 24 * 3600, shown: '`86400` (24 hours)' }, "Lifetime of email verification links (the expiry is part of the link's signed hash)."),
  emailVerificationUrl: text('EMAIL_VERIFICATION_URL', { default: (get) => `${get(appUrl)}/email/verify`, shown: '`$APP_URL/email/verify`', map: withoutTrailingSlash }, 'Base of the link in verification mails; the link is `<base>/<user_id>/<hash>?tenant=<tenant_id>` (spec 1), served by the platform at `/email/verify/...` and `/api/v1/email/verify/...`. A web client that serves `/email/verify/...` itself (and calls the API) sets e.g. `https://app.example.com/email/verify`.'),
});
