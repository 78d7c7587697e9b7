/**
 * POST /platform/seed (development only, platform super admins): the console's first-run offer on an
 * empty registry, doing what `mandi platform seed` does (sdk/cli/seed.ts: every first-party module
 * published and promoted into every ring). It runs the same code as the command, as the caller,
 * against this platform's own API, so every check a publish or promotion passes through applies.
 * Outside development it does not exist (404): a production registry is filled by publishers.
 *   → 200 {modules: [{alias, version, published, promoted: [ring]}]}
 */
import type { RequestHandler, Router } from 'express';
import { ApiClient, CliError } from '../../sdk/cli/api-client';
import { seedModules } from '../../sdk/cli/seed';
import { currentContext } from '../kernel/context';
import { forbidden } from '../kernel/errors';
import { consoleErrors } from './errors';

export interface SeedRouteDeps {
  env: string;
  authenticated: RequestHandler;
  /** This platform's own base URL (known once it listens). */
  selfUrl: () => string;
}

export function registerSeedRoute(api: Router, deps: SeedRouteDeps): void {
  api.post('/platform/seed', async (req, res, next) => {
    if (deps.env !== 'development') return next(consoleErrors.seedOutsideDevelopment(req.originalUrl.split('?')[0]));
    next();
  }, deps.authenticated, async (req, res) => {
    if (!currentContext()?.user?.isSuperAdmin) throw forbidden('Only a platform super admin may seed the registry.');
    const token = (req.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
    try {
      res.json({ modules: await seedModules(new ApiClient({ url: deps.selfUrl(), token })) });
    } catch (err) {
      if (err instanceof CliError) throw consoleErrors.seedFailed(err.message, err.lines);
      throw err;
    }
  });
}
