/**
 * The deployment's own settings: where it listens, its mode, its public URL and domain, its data
 * folder and log level (core/kernel/config/settings.ts). Other parts' settings compute defaults from these.
 */
import path from 'node:path';
import { int, setting, settingsGroup, text, withoutTrailingSlash } from './settings';

export const port = int('PORT', { default: 3000 }, 'HTTP port (`0` picks a free one).');

export const nodeEnv = setting('NODE_ENV', '`development`', '`production` hides debug output and turns off introspection and the playground by default.', (raw) => (raw === 'production' || raw === 'test' ? raw : 'development'));

export const appUrl = text('APP_URL', { default: (get) => `http://localhost:${get(port)}`, shown: '`http://localhost:$PORT`', map: withoutTrailingSlash }, "Public base URL used in links (emails, downloads) and in a tenant's public URL (`platform.get_tenant` `url`: the live chat embed code): its scheme and port, with `<alias>.` in front of the host when the host is `ROOT_DOMAIN`.");

export const rootDomain = text('ROOT_DOMAIN', { default: 'localhost', map: (d) => d.toLowerCase() }, 'Tenants are served at `<alias or id>.<ROOT_DOMAIN>`.');

export const platformSettings = settingsGroup('config', {
  port,
  host: text('HOST', { default: '0.0.0.0' }, 'Interface to listen on.'),
  env: nodeEnv,
  appUrl,
  rootDomain,
  dataDir: text('DATA_DIR', { default: './data', map: (d) => path.resolve(d) }, 'Where the embedded PostgreSQL and local files live; registry packages are stored under `DATA_DIR/registry` and bulk uploads under `DATA_DIR/uploads`, and without `APP_KEY` the platform key in `DATA_DIR/app.key` (nodes of one deployment must share it: an upload received by one node may be processed by another).'),
  logLevel: text('LOG_LEVEL', { default: (get) => (get(nodeEnv) === 'test' ? 'silent' : 'info'), shown: '`info` (`silent` in tests)' }, 'pino level: `trace` … `fatal`, `silent`.'),
});
