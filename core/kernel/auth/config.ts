/** The login tokens' settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { int, settingsGroup } from '../config/settings';

export const authSettings = settingsGroup('auth', {
  tokenTtlSeconds: int('TOKEN_TTL_SECONDS', { default: 30 * 24 * 3600, shown: '`2592000` (30 days)' }, 'Lifetime of tokens from `POST /auth/login`; `0` for none.'),
});
