/**
 * Catalogs assembled from manifests per ring (DESIGN.md, Rings and the registry; issue 4 item 5):
 * the workflow node registry (spec 2), server-driven screens (spec 1) and the AI tool list (spec 2).
 */
import type { RequestHandler, Router } from 'express';
import type { Bus } from '../../kernel/bus/bus';
import type { Cache, RateLimiter, RateLimitPolicy } from '../../kernel/drivers';
import type { Logger } from '../../kernel/logger';
import type { ModuleHost } from '../../kernel/modules/module-host';
import { registerAgentToolOperations, type AgentToolDeps } from './agent-tool-operations';
import { registerAiToolRoutes } from './ai-tool-routes';
import { ModuleParts, RingCatalogs, type ReleaseSource } from './ring-catalogs';
import { ScreenDefinitions } from './screen-definitions';
import { registerScreenRoutes } from './screen-routes';
import { TenantCatalogs } from './tenant-catalogs';
import { userCalls } from './user-calls';
import { registerWorkflowNodeRoutes } from './workflow-node-routes';

export interface CatalogDeps {
  releases: ReleaseSource;
  modules: ModuleHost;
  isDevelopment(alias: string): boolean;
  bus: Bus;
  cache: Cache;
  rateLimiter: RateLimiter;
  /** Spec 2 Limits: the standard workflow endpoints (WORKFLOW_RATE_LIMIT). */
  workflowRateLimit: RateLimitPolicy;
  screenDefinitionTtlSeconds: number;
  logger: Logger;
  /** tools.call / tools.grant: acting for a user later (acting-grants.ts). */
  grants: AgentToolDeps['grants'];
  clock: AgentToolDeps['clock'];
  actingUser: AgentToolDeps['actingUser'];
}

export interface Catalogs {
  rings: RingCatalogs;
  tenants: TenantCatalogs;
  registerRoutes(api: Router, authenticated: RequestHandler): void;
}

export async function createCatalogs(deps: CatalogDeps): Promise<Catalogs> {
  const logger = deps.logger.child({ part: 'catalogs' });
  const parts = new ModuleParts();
  const rings = new RingCatalogs({ releases: deps.releases, parts, logger });
  await rings.start();
  const tenants = new TenantCatalogs({ rings, parts, modulesFor: (id) => deps.modules.modulesFor(id), isDevelopment: deps.isDevelopment, logger });
  registerAgentToolOperations(deps.bus, { modules: deps.modules, grants: deps.grants, clock: deps.clock, actingUser: deps.actingUser });
  const call = userCalls(deps.bus);
  const definitions = new ScreenDefinitions({ cache: deps.cache, ttlSeconds: deps.screenDefinitionTtlSeconds, call });
  return {
    rings,
    tenants,
    registerRoutes: (api, authenticated) => {
      registerWorkflowNodeRoutes(api, { catalogs: tenants, authenticated, rateLimiter: deps.rateLimiter, rateLimit: deps.workflowRateLimit });
      registerScreenRoutes(api, { catalogs: tenants, definitions, modules: deps.modules, call, authenticated });
      registerAiToolRoutes(api, { catalogs: tenants, authenticated });
    },
  };
}
