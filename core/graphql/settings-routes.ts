/**
 * The tenant's gateway settings (they live in the central tenants.settings JSONB), permission
 * `settings.manage`. Same shape as stored:
 *   GET   /graphql/settings  200 {graphql: {persisted_queries_only, introspection, playground}, audit_mutations}
 *                            with the values in effect (introspection and playground fall back to
 *                            the environment when the tenant has not chosen)
 *   PATCH /graphql/settings  the same shape, any subset; introspection/playground may be null to
 *                            return to the environment default. 422 {message, errors} on non-booleans.
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import { ValidationError } from '../errors';
import type { GraphqlGateway } from './gateway';
import type { GatewaySettingsPatch, GatewaySettingsStore } from './gateway-settings';

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
    const body = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
    const gql = (body.graphql ?? {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = {};
    const patch: GatewaySettingsPatch = {};
    if (typeof gql !== 'object' || Array.isArray(gql) || gql === null) errors.graphql = ['The graphql field must be an object.'];
    else {
      if (gql.persisted_queries_only !== undefined) {
        if (typeof gql.persisted_queries_only !== 'boolean') errors['graphql.persisted_queries_only'] = ['The value must be true or false.'];
        else patch.persisted_queries_only = gql.persisted_queries_only;
      }
      for (const k of ['introspection', 'playground'] as const) {
        if (gql[k] === undefined) continue;
        if (gql[k] !== null && typeof gql[k] !== 'boolean') errors[`graphql.${k}`] = ['The value must be true, false or null.'];
        else patch[k] = gql[k] as boolean | null;
      }
    }
    if (body.audit_mutations !== undefined) {
      if (typeof body.audit_mutations !== 'boolean') errors.audit_mutations = ['The value must be true or false.'];
      else patch.audit_mutations = body.audit_mutations;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    await deps.ready;
    const tenantId = currentContext()!.tenant!.id;
    await deps.settings.update(tenantId, patch);
    res.json(await view(tenantId));
  });
}
