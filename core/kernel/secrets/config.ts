/** The platform key's settings (core/kernel/secrets/key-source.ts; core/kernel/config/settings.ts). */
import { list, optionalText, settingsGroup } from '../config/settings';

export const keySettings = settingsGroup('keys', {
  /** Unset: generated on first start into <dataDir>/app.key. `base64:` prefix: the bytes it encodes. */
  appKey: optionalText('APP_KEY', 'The platform key: signed links, 2FA challenges, encrypted TOTP secrets, client-release tokens and module secrets derive their keys from it. Set it in production (a long random string, or `base64:` and the base64 of 32 random bytes). Unset: generated on first start into `DATA_DIR/app.key` (mode 0600); several nodes must then set `APP_KEY` or share `DATA_DIR` (a node whose key differs refuses to start). See [Platform key and rotation](platform-key.md).'),
  appKeyPrevious: list('APP_KEY_PREVIOUS', { separator: ',', trim: true }, 'Keys `APP_KEY` replaced, comma-separated (same format): values encrypted under them still decrypt until `POST /admin/secrets/rotate` has moved them.'),
});
