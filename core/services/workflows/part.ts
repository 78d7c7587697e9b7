/** The workflows part (core/kernel/parts): the engine, its routes and the webhook trigger (spec 2). */
import { authRef } from '../../kernel/auth/part';
import { catalogsRef } from '../contributions/part';
import { clockRef } from '../../kernel/clock-part';
import { configRef } from '../../config';
import { centralRef, tenantDbsRef } from '../../kernel/data/parts';
import { driversRef } from '../../kernel/drivers/parts';
import { routesRef } from '../../kernel/http/routes';
import { loggerRef } from '../../kernel/logger';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { tenantsRef } from '../../kernel/tenancy/part';
import { createWorkflows, type WorkflowPart } from './index';

export const workflowsRef = partRef<WorkflowPart>('workflows');

export const workflowsPart = definePart({
  ref: workflowsRef,
  deps: {
    config: configRef, central: centralRef, tenantDbs: tenantDbsRef, tenants: tenantsRef, auth: authRef, kernel: kernelRef, catalogs: catalogsRef, drivers: driversRef, clock: clockRef, logger: loggerRef, routes: routesRef,
  },
  init: ({ config, central, tenantDbs, tenants, auth, kernel, catalogs, drivers, clock, logger, routes }, lifecycle) => {
    const workflows = createWorkflows({
      central, tenantDbs, tenants, auth, modules: kernel.modules, bus: kernel.bus, events: kernel.events, catalogs: catalogs.tenants,
      queue: drivers.queue, pubsub: drivers.pubsub, clock, logger, appUrl: config.appUrl, workers: config.workflowWorkers, tenantWorkers: config.workflowTenantWorkers, webhookWaitsPerTenant: config.workflowWebhookWaitsPerTenant, maxChainDepth: config.workflowMaxChainDepth,
      versionsKeep: config.workflowVersionsKeep, rateLimiter: drivers.rateLimiter,
      sweepMs: config.workflowSweepSeconds * 1000, leaseMs: config.workflowRunLeaseSeconds * 1000,
      limits: { standard: config.workflowRateLimit, execute: config.workflowExecuteRateLimit, webhook: config.workflowWebhookRateLimit, publicMiss: config.publicMissRateLimit },
    });
    // Runs add to the queue as they end (checkpointed wake-ups, lifecycle events): this drain runs
    // before the drivers part's, which closes the queue, since this part starts after it.
    lifecycle.onDrain(() => workflows.service.stop());
    routes.add({ name: 'workflows', mount: (api, { authenticated }) => workflows.registerRoutes(api, authenticated) });
    // The webhook trigger is the engine's own public route, tried before any module's (spec 2).
    routes.add({ name: 'workflow-webhook', mount: (router) => void router.use(workflows.webhook) });
    return workflows;
  },
});
