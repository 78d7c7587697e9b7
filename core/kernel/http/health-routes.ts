/** GET /api/v1/health: database and Redis state, for load balancers and humans. */
import type { Router } from 'express';
import type { CentralDb } from '../data/central-db';

export const PLATFORM_NAME = 'mandi';

export function registerHealthRoutes(
  api: Router,
  deps: { central: CentralDb; redisHealth: () => Promise<'up' | 'down' | 'not_configured'>; embeddedDb: boolean; version: string },
): void {
  api.get('/health', async (_req, res) => {
    const database = await deps.central.sequelize
      .query('SELECT 1')
      .then(() => 'up' as const)
      .catch(() => 'down' as const);
    const redis = await deps.redisHealth().catch(() => 'down' as const);
    const ok = database === 'up' && redis !== 'down';
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'degraded',
      version: deps.version,
      database: { state: database, embedded: deps.embeddedDb },
      redis: { state: redis },
      time: new Date().toISOString(),
    });
  });
}
