/**
 * The tenant's gateway settings (they live in the central tenants.settings JSONB), permission
 * `settings.manage`. Same shape as stored:
 *   GET   /graphql/settings  200 {graphql: {persisted_queries_only, introspection, playground}, audit_mutations}
 *                            with the values in effect (introspection and playground fall back to
 *                            the environment when the tenant has not chosen)
 *   PATCH /graphql/settings  the same shape, any subset, or the spec's dotted names ("graphql.introspection");
 *                            introspection/playground may be null to return to the environment default.
 *                            422 {message, errors} on non-booleans and unknown settings (settings-patch.ts).
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import type { GraphqlGateway } from './gateway';
import type { GatewaySettingsStore } from './gateway-settings';
import { readSettingsPatch } from './settings-patch';

export function registerSettingsRoutes(
  api: Router,
  deps: { settings: GatewaySettingsStore; gateway: GraphqlGateway; authenticated: RequestHandler; ready: Promise<unknown> },
): void {
  const manage = requirePermission('settings.manage');
  const view = async (tenantId: string) => {
    const s = await deps.settings.get(tenantId);
    return {
      graphql: { persisted_queries_only: s.persistedQueriesOnly, introspection: deps.gateway.introspectionAllowed(s), playground: deps.gateway.playgroundAllowed(s) },
      audit_mutations: s.auditMutations,
    };
  };

  api.get('/graphql/settings', deps.authenticated, manage, async (_req, res) => {
    res.json(await view(currentContext()!.tenant!.id));
  });

  api.patch('/graphql/settings', deps.authenticated, manage, async (req, res) => {
    const patch = readSettingsPatch(req.body);
    await deps.ready;
    const tenantId = currentContext()!.tenant!.id;
    await deps.settings.update(tenantId, patch);
    res.json(await view(tenantId));
  });
}
