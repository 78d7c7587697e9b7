/**
 * The GraphQL gateway's HTTP surface (spec 1, GraphQL gateway; Authentication 1 and 3), mounted
 * under /api/v1 behind the same tenant and token middleware as REST.
 *
 * POST /graphql  body {query?, variables?, operationName?, extensions?} as JSON.
 *   Response body (the spec leaves it "not shown"; this is GraphQL-over-HTTP): {data?, errors?}, each
 *   error {message, locations?, path?, extensions: {code, ...details}}. Content-Type is
 *   application/graphql-response+json when the client's Accept prefers it, else application/json.
 *   - executed (even with field errors): 200 {data, errors?}. A field the user may not see, a bus
 *     refusal (permission, consumes, rate limit) or a module error is a field error with its code.
 *   - refused before execution: {errors} only, with the status:
 *       400 syntax (GRAPHQL_PARSE_FAILED), validation (GRAPHQL_VALIDATION_FAILED), introspection off
 *           (GRAPHQL_INTROSPECTION_DISABLED), unknown or missing operationName (OPERATION_NAME_UNKNOWN /
 *           _REQUIRED), variables of the wrong type (GRAPHQL_VARIABLES_INVALID), a broken limit
 *           (GRAPHQL_DEPTH_LIMIT, GRAPHQL_COMPLEXITY_LIMIT, GRAPHQL_ALIAS_LIMIT, extensions {limit, max,
 *           value}), unknown persisted hash (PERSISTED_QUERY_NOT_FOUND), bad persisted extension
 *           (PERSISTED_QUERY_VERSION_NOT_SUPPORTED, _HASH_INVALID, _HASH_MISMATCH), no query (QUERY_MISSING),
 *           malformed JSON (MALFORMED_JSON), a body that is not an object (BAD_REQUEST, BATCH_NOT_SUPPORTED)
 *       401 no or bad token; 403 not a member, or an unregistered operation in persisted-only mode
 *           (PERSISTED_QUERY_REQUIRED); 415 a body that is not JSON; 429 API rate limit.
 *   Persisted queries (rule 1): extensions.persistedQuery {version: 1, sha256Hash} and no query runs
 *   the registered text; with the query as well, the hash must match it (it then runs whether or not
 *   registered, unless the tenant is persisted-only).
 * GET /graphql                 405 with Allow: POST (the platform's 405 for known paths, in the GraphQL shape).
 * GET /graphql/schema          the merged SDL of the tenant's ring (text/plain), permission
 *                              graphql.schema.view; ETag and X-Schema-Key name graphql:schema:<ring>:<fp>.
 * GET /graphql/playground      HTML page around GraphiQL (playground/page.ts), permission
 *                              graphql.playground.access; 404 PLAYGROUND_DISABLED when off (default in
 *                              production; GRAPHQL_PLAYGROUND or the tenant setting graphql.playground turn it on).
 * GET /graphql/playground/<file>  the page's script, styles, font and workers (playground/assets.ts);
 *                              no token or tenant (a <script src> and a Worker cannot send them), and
 *                              the same bytes for everyone: GraphiQL's public code, no tenant data.
 * Persisted-query management: persisted-routes.ts. Tenant settings: settings-routes.ts.
 */
import type { Request, RequestHandler, Router } from 'express';
import type { Bus } from '../../kernel/bus/bus';
import type { AuditWriter } from '../../kernel/bus/audit-writer';
import type { Clock } from '../../kernel/clock';
import type { Config } from '../../config';
import { requirePermission } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import type { CentralDb } from '../../kernel/data/central-db';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import type { PubSub } from '../../kernel/drivers';
import { MandiError } from '../../kernel/errors';
import { graphqlErrors } from './errors';
import { useErrorShape, useErrorShapeForPath } from '../../kernel/http/error-handler';
import type { Logger } from '../../kernel/logger';
import type { ModuleHost } from '../../kernel/modules/module-host';
import { GraphqlGateway, GraphqlRequestError } from './gateway';
import { GatewaySettingsStore } from './gateway-settings';
import { formatRequestError } from './graphql-errors';
import { PersistedQueries } from './persisted-queries';
import { registerPersistedRoutes } from './persisted-routes';
import { PLAYGROUND_ASSETS_DIR, playgroundAssets } from './playground/assets';
import { PLAYGROUND_CSP, playgroundPage } from './playground/page';
import { SchemaCache } from './schema-cache';
import { registerSettingsRoutes } from './settings-routes';

export interface GraphqlRouteDeps {
  config: Pick<Config, 'env' | 'graphqlIntrospection' | 'graphql'>;
  central: CentralDb;
  tenantDbs: TenantDatabases;
  pubsub: PubSub;
  kernel: { modules: ModuleHost; bus: Bus; audit: AuditWriter };
  clock: Clock;
  logger: Logger;
  authenticated: RequestHandler;
}

export interface GraphqlService {
  gateway: GraphqlGateway;
  schemas: SchemaCache;
  persisted: PersistedQueries;
  settings: GatewaySettingsStore;
}

const RESPONSE_TYPES = ['application/json', 'application/graphql-response+json'];

function send(req: Request, res: Parameters<RequestHandler>[1], status: number, body: unknown): void {
  const type = req.accepts(RESPONSE_TYPES) || 'application/json';
  res.status(status).set('Content-Type', `${type}; charset=utf-8`).send(JSON.stringify(body));
}

export function registerGraphqlRoutes(api: Router, deps: GraphqlRouteDeps): GraphqlService {
  const logger = deps.logger.child({ part: 'graphql' });
  const schemas = new SchemaCache({ ttlSeconds: deps.config.graphql.schemaCacheTtlSeconds, coreOperations: () => deps.kernel.bus.coreOperations(), logger });
  const persisted = new PersistedQueries({ tenantDbs: deps.tenantDbs, pubsub: deps.pubsub });
  const settings = new GatewaySettingsStore({ central: deps.central, pubsub: deps.pubsub });
  const gateway = new GraphqlGateway({ config: deps.config, modules: deps.kernel.modules, bus: deps.kernel.bus, schemas, persisted, settings, audit: deps.kernel.audit, clock: deps.clock, logger });
  // Cache invalidation subscriptions; requests wait for them so no change can be missed.
  const ready = Promise.all([persisted.start(), settings.start()]);
  ready.catch((err: unknown) => logger.error({ err }, 'GraphQL cache invalidation could not subscribe'));

  const graphqlShape = useErrorShape('graphql');
  // Errors raised before routing (malformed JSON, rate limit) keep the GraphQL shape; the router is mounted at /api/v1.
  useErrorShapeForPath('/api/v1/graphql', 'graphql');
  const tenant = () => currentContext()!.tenant!;
  const schemaOf = async () => schemas.get(tenant().ring, await deps.kernel.modules.modulesFor(tenant().id));

  api.post('/graphql', graphqlShape, deps.authenticated, async (req, res) => {
    await ready;
    try {
      send(req, res, 200, await gateway.run(req));
    } catch (err) {
      if (err instanceof GraphqlRequestError) return send(req, res, err.status, { errors: err.errors.map(formatRequestError) });
      if (err instanceof MandiError) return send(req, res, err.status, { errors: [formatRequestError(err)] });
      throw err;
    }
  });

  api.get('/graphql/schema', deps.authenticated, requirePermission('graphql.schema.view'), async (_req, res) => {
    const built = await schemaOf();
    res.set({ ETag: `"${built.key}"`, 'X-Schema-Key': built.key, 'Cache-Control': 'private, no-cache' });
    res.type('text/plain; charset=utf-8').send(built.sdl);
  });

  api.get(
    '/graphql/playground',
    deps.authenticated,
    async (_req, _res, next) => {
      await ready;
      if (gateway.playgroundAllowed(await settings.get(tenant().id))) return next();
      throw graphqlErrors.playgroundDisabled();
    },
    requirePermission('graphql.playground.access'),
    async (req, res) => {
      const built = await schemaOf();
      const html = playgroundPage({
        assets: `${req.baseUrl}/graphql/playground/`,
        endpoint: `${req.baseUrl}/graphql`,
        schemaUrl: `${req.baseUrl}/graphql/schema`,
        tenant: tenant().id,
        tenantName: tenant().name,
        ring: built.ring,
        fingerprint: built.fingerprint,
      });
      res.set({ 'Content-Security-Policy': PLAYGROUND_CSP, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
      res.type('html').send(html);
    },
  );

  // Bundled at start where the playground is on by default, else on its first use (a tenant setting).
  if (deps.config.graphql.playground) playgroundAssets().catch((err: unknown) => logger.error({ err }, 'The GraphQL playground could not be bundled'));
  api.get('/graphql/playground/:file', async (req, res, next) => {
    const file = req.params.file as string;
    if (!(await playgroundAssets()).includes(file)) return next();
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    res.sendFile(file, { root: PLAYGROUND_ASSETS_DIR });
  });

  registerPersistedRoutes(api, { persisted, gateway, authenticated: deps.authenticated, ready });
  registerSettingsRoutes(api, { settings, gateway, authenticated: deps.authenticated, ready });
  return { gateway, schemas, persisted, settings };
}
