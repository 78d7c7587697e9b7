/** The workflow engine's settings (spec 2, Limits; core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { int, rate, settingsGroup } from '../../kernel/config/settings';
import { tenantShare } from '../../kernel/drivers/config';

const workflowWorkers = int('WORKFLOW_WORKERS', { default: 16, min: 1 }, 'Workflow executions this node runs at once (core/services/workflows).');

export const workflowSettings = settingsGroup('workflows', {
  workflowRateLimit: rate('WORKFLOW_RATE_LIMIT', { default: '60/60' }, 'Requests per user and window on the standard workflow endpoints, e.g. the node registry (spec 2, Limits); `points/seconds`.'),
  workflowExecuteRateLimit: rate('WORKFLOW_EXECUTE_RATE_LIMIT', { default: '30/60' }, 'Requests per user and window on the workflow execute endpoints: execute, test, simulate, retry (spec 2, Limits).'),
  workflowWebhookRateLimit: rate('WORKFLOW_WEBHOOK_RATE_LIMIT', { default: '120/60' }, 'Requests per webhook token and window on `POST /api/webhooks/workflows/{token}` (spec 2, Limits).'),
  /** core/services/workflows/engine.ts. */
  workflowWorkers,
  workflowTenantWorkers: tenantShare('WORKFLOW_TENANT_WORKERS', workflowWorkers, 'half of `WORKFLOW_WORKERS`, rounded up (`8`)', "Of those, how many one tenant's runs may hold while another tenant's runs are due; alone, a tenant uses them all."),
  workflowSweepSeconds: int('WORKFLOW_SWEEP_SECONDS', { default: 10, min: 1 }, 'How often each node (and each node on start) sweeps for workflow runs nobody holds: suspended runs that are due, pending or running runs whose lease expired (core/services/workflows/README.md, Execution model).'),
  workflowRunLeaseSeconds: int('WORKFLOW_RUN_LEASE_SECONDS', { default: 60, min: 1 }, "How long a workflow run's lease lasts unless its worker renews it (every third of it); a run whose node died is queued again by the sweeper once its lease has expired. Keep it above `QUEUE_LOCK_MS` + `QUEUE_STALLED_CHECK_MS` on Redis, so bull's own recovery of a killed worker's job comes first."),
  workflowMaxChainDepth: int('WORKFLOW_MAX_CHAIN_DEPTH', { default: 5, min: 1 }, 'Runs one chain of workflow runs may hold (a run started by an event another run caused, or by a sub-workflow node): a run deeper than that is refused with `WORKFLOW_CHAIN_TOO_DEEP` (core/services/workflows/README.md, Run chains).'),
  workflowVersionsKeep: int('WORKFLOW_VERSIONS_KEEP', { default: 100, min: 2 }, 'Versions kept per workflow (at least 2); older ones are dropped at the next save, except a version a run not finished yet is pinned to (core/services/workflows/README.md, Versions).'),
  workflowWebhookWaitsPerTenant: int('WORKFLOW_WEBHOOK_WAITS_PER_TENANT', { default: 20, min: 1 }, `Webhook calls one tenant may have waiting for their run's end on one node (\`trigger_config.respond: "last_node"\`, core/services/workflows/README.md); beyond it 429 \`WEBHOOK_WAIT_LIMIT\`, nothing runs.`),
});
