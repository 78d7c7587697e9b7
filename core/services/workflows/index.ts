/** The workflow engine (spec 2, Workflows; Executions; Public webhook trigger): see README.md here. */
import type { RequestHandler, Router } from 'express';
import type { RateLimiter, RateLimitPolicy } from '../../kernel/drivers';
import { registerExecutionRoutes } from './execution-routes';
import { guards } from './route-support';
import { registerScheduleOperation } from './schedule-trigger';
import { registerScreenOperations } from './screen-operations';
import { registerStartOperation } from './start-operation';
import { registerSubWorkflowOperation } from './sub-workflow-operation';
import { webhookRouter } from './webhook-route';
import { registerWorkflowRoutes } from './workflow-routes';
import { Workflows, type WorkflowsDeps } from './workflows';

export { Workflows };

export interface WorkflowPart {
  service: Workflows;
  registerRoutes(api: Router, authenticated: RequestHandler): void;
  /** POST /api/webhooks/workflows/{token}, served outside /api/v1. */
  webhook: Router;
}

export function createWorkflows(deps: WorkflowsDeps & { rateLimiter: RateLimiter; limits: { standard: RateLimitPolicy; execute: RateLimitPolicy; webhook: RateLimitPolicy; publicMiss: RateLimitPolicy } }): WorkflowPart {
  const service = new Workflows(deps);
  service.start();
  registerScheduleOperation(deps.bus, service);
  registerScreenOperations(deps.bus, service);
  registerStartOperation(deps.bus, service, deps.modules);
  registerSubWorkflowOperation(deps.bus, service, deps.maxChainDepth);
  return {
    service,
    registerRoutes: (api, authenticated) => {
      const g = guards({ authenticated, modules: deps.modules, rateLimiter: deps.rateLimiter, standard: deps.limits.standard, execute: deps.limits.execute });
      registerWorkflowRoutes(api, g, service);
      registerExecutionRoutes(api, g, service);
    },
    webhook: webhookRouter(service, { rateLimiter: deps.rateLimiter, limit: deps.limits.webhook, missLimit: deps.limits.publicMiss }),
  };
}
