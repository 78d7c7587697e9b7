/** The catalogs' settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { int, settingsGroup } from '../../kernel/config/settings';

export const catalogSettings = settingsGroup('catalogs', {
  screenDefinitionTtlSeconds: int('SCREEN_DEFINITION_CACHE_TTL', { default: 300 }, 'Seconds the backend caches a server-driven screen definition (spec 1, Limits); `0` turns the cache off.'),
});
