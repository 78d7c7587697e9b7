/**
 * Client releases endpoints (spec 1). All need authentication and tenant context.
 *   GET    /cli/releases                                 normalised manifest (schema_version 1) of the tenant's channel;
 *                                                        404 NO_RELEASE_CHANNEL when neither tenant nor platform has one
 *   GET    /cli/releases/{version}/download/{filename}   hosted_repo: streamed through the platform; static, bucket: 302
 *   GET    /cli/channel                                  (cli.channel.manage) the channel in effect
 *   PUT    /cli/channel  {adapter, config}               (cli.channel.manage) sets the tenant's own source
 *   DELETE /cli/channel                                  (cli.channel.manage) back to the platform default
 * Body of the three channel endpoints (the spec leaves PUT's open):
 *   {channel: {adapter, config, inherited, updated_at}}; config never holds the token, hosted_repo
 *   shows token_set instead; adapter and config are null when nothing is configured anywhere.
 */
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Router } from 'express';
import { requirePermission } from '../../kernel/auth/authenticate';
import type { Clock } from '../../kernel/clock';
import { currentContext } from '../../kernel/context';
import type { Logger } from '../../kernel/logger';
import { validateChannel, type ChannelConfig } from './channel-config';
import type { ChannelStore } from './channel-store';
import { httpsPolicy, type Environment } from '../../kernel/net/outbound-policy';
import type { ReleaseService } from './release-service';
import { ReleaseSourceError, upstream } from './sources/upstream';

export const CHANNEL_PERMISSION = 'cli.channel.manage';

export interface ReleaseRouteDeps {
  service: ReleaseService;
  store: ChannelStore;
  authenticated: RequestHandler;
  clock: Clock;
  env: Environment;
  logger: Logger;
}

/** The origin the client reached us on, so download URLs work through the same host and tenant routing. */
const apiBase = (req: Request) => `${req.protocol}://${req.get('host')}/api/v1`;

const shownConfig = (c: ChannelConfig, hasToken: boolean) => {
  const { adapter: _adapter, ...rest } = c;
  return c.adapter === 'hosted_repo' ? { ...rest, token_set: hasToken } : rest;
};

export function registerReleaseRoutes(api: Router, deps: ReleaseRouteDeps): void {
  const { service, store, authenticated } = deps;
  const manage = requirePermission(CHANNEL_PERMISSION);
  const tenantId = () => currentContext()!.tenant!.id;

  const describe = async (id: string) => {
    const stored = await store.get(id);
    if (stored) return { adapter: stored.config.adapter, config: shownConfig(stored.config, stored.hasToken), inherited: false, updated_at: stored.updatedAt };
    const d = service.defaultSource;
    return { adapter: d?.config.adapter ?? null, config: d ? shownConfig(d.config, !!d.token) : null, inherited: true, updated_at: null };
  };

  api.get('/cli/releases', authenticated, async (req, res) => {
    res.set('cache-control', 'private, max-age=0');
    res.json(await service.manifestFor(tenantId(), apiBase(req)));
  });

  api.get('/cli/releases/:version/download/:filename', authenticated, async (req, res) => {
    const delivery = await service.assetFor(tenantId(), String(req.params.version), String(req.params.filename));
    if (delivery.mode === 'redirect') return res.redirect(302, delivery.url);
    const up = await upstream(delivery.url, delivery.request);
    if (up.status !== 200) {
      up.stream.resume();
      throw new ReleaseSourceError(`the asset answered ${up.status}`);
    }
    res.status(200);
    res.set({
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${delivery.filename}"`,
      'cache-control': 'private, no-store',
    });
    const length = up.headers['content-length'];
    if (length) res.set('content-length', length);
    try {
      await pipeline(up.stream, res);
    } catch (err) {
      // Headers are gone; the client sees a short body, which its checksum turns into a refusal.
      deps.logger.warn({ err, url: delivery.url }, 'asset stream broke off');
      res.destroy();
    }
  });

  api.get('/cli/channel', authenticated, manage, async (_req, res) => {
    res.json({ channel: await describe(tenantId()) });
  });

  api.put('/cli/channel', authenticated, manage, async (req, res) => {
    const id = tenantId();
    const stored = await store.get(id);
    const { config, token } = validateChannel(req.body, httpsPolicy(deps.env, false), stored);
    await store.put(id, config, token, currentContext()!.user!.id, deps.clock.date());
    res.json({ channel: await describe(id) });
  });

  api.delete('/cli/channel', authenticated, manage, async (_req, res) => {
    await store.delete(tenantId());
    res.json({ channel: await describe(tenantId()) });
  });
}
