/** Push delivery's settings: the mobile push service (HTTP) and web push (VAPID); unset: no push (core/kernel/config/settings.ts). */
import { rootDomain } from '../../kernel/config/platform-settings';
import { optionalText, settingsGroup, text } from '../../kernel/config/settings';

export const notificationSettings = settingsGroup('notifications', {
  push: {
    url: optionalText('PUSH_URL', "Mobile push service: one `POST` per notification naming the recipient's iOS/Android tokens (see `core/services/notifications/push/http-push-adapter.ts`). Unset: no mobile push."),
    token: optionalText('PUSH_TOKEN', 'Bearer token sent to `PUSH_URL`.'),
    vapidPrivateKey: optionalText('VAPID_PRIVATE_KEY', 'Web push to browsers: the P-256 private key (32 bytes, base64url); the public key is derived and served at `GET /push/web/vapid-public-key`. Unset: no web push.'),
    vapidSubject: text('VAPID_SUBJECT', { default: (get) => `mailto:no-reply@${get(rootDomain)}`, shown: '`mailto:no-reply@$ROOT_DOMAIN`' }, "Contact (`mailto:` or `https:`) given to browsers' push services in the VAPID token."),
  },
});
