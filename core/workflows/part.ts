/** The workflows part (core/parts): the engine, its routes and the webhook trigger (spec 2). */
import { platformPart } from '../parts/platform-parts';
import { createWorkflows } from './index';

export const workflowsPart = platformPart({
  id: 'workflows',
  // `jobs`: runs add to the queue (checkpointed wake-ups, lifecycle events), so this part stops its
  // runs before the jobs part closes the queue.
  deps: ['config', 'central', 'tenantDbs', 'tenants', 'auth', 'kernel', 'catalogs', 'drivers', 'clock', 'logger', 'jobs'],
  init: ({ config, central, tenantDbs, tenants, auth, kernel, catalogs, drivers, clock, logger }) =>
    createWorkflows({
      central, tenantDbs, tenants, auth, modules: kernel.modules, bus: kernel.bus, events: kernel.events, catalogs: catalogs.tenants,
      queue: drivers.queue, pubsub: drivers.pubsub, clock, logger, appUrl: config.appUrl, workers: config.workflowWorkers, tenantWorkers: config.workflowTenantWorkers, webhookWaitsPerTenant: config.workflowWebhookWaitsPerTenant, maxChainDepth: config.workflowMaxChainDepth,
      versionsKeep: config.workflowVersionsKeep, rateLimiter: drivers.rateLimiter,
      sweepMs: config.workflowSweepSeconds * 1000, leaseMs: config.workflowRunLeaseSeconds * 1000,
      limits: { standard: config.workflowRateLimit, execute: config.workflowExecuteRateLimit, webhook: config.workflowWebhookRateLimit, publicMiss: config.publicMissRateLimit },
    }),
  stop: (workflows) => workflows.service.stop(),
});
