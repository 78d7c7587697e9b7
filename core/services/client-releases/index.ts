/**
 * Client releases assembled (spec 1, Client releases and Client release manifest): the channel store
 * with the encrypted repository token, the release sources, and the endpoints. Mounted as a route
 * group by core/services/client-releases/part.ts (core/kernel/http/routes.ts).
 */
import type { RequestHandler, Router } from 'express';
import type { AppKeys } from '../../kernel/secrets/app-key';
import type { Clock } from '../../kernel/clock';
import type { Config } from '../../config';
import type { CentralDb } from '../../kernel/data/central-db';
import type { Cache } from '../../kernel/drivers';
import type { Logger } from '../../kernel/logger';
import { allowsPrivateNetworks } from '../../kernel/tenancy/private-networks';
import { platformDefault } from './channel-config';
import { ChannelStore } from './channel-store';
import { ReleaseService } from './release-service';
import { registerReleaseRoutes } from './release-routes';

export interface ClientReleaseDeps {
  config: Pick<Config, 'env' | 'cliReleases'>;
  central: CentralDb;
  keys: AppKeys;
  cache: Cache;
  clock: Clock;
  logger: Logger;
  authenticated: RequestHandler;
}

export function registerClientReleaseRoutes(api: Router, deps: ClientReleaseDeps): ReleaseService {
  const { config } = deps;
  const store = new ChannelStore(deps.central, deps.keys);
  const service = new ReleaseService({ store, cache: deps.cache, cacheSeconds: config.cliReleases.cacheSeconds, defaultSource: platformDefault(config), env: config.env, allowsPrivateNetworks: (tenantId) => allowsPrivateNetworks(deps.central, tenantId) });
  registerReleaseRoutes(api, { service, store, authenticated: deps.authenticated, clock: deps.clock, env: config.env, logger: deps.logger.child({ part: 'client-releases' }) });
  return service;
}
