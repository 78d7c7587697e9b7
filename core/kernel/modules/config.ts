/** The module kernel's settings: bus, sandbox, events, jobs, public routes (core/kernel/config/settings.ts). */
import path from 'node:path';
import { nodeEnv } from '../config/platform-settings';
import { MODULE_DB_ROLES } from '../module-data/types';
import { bool, int, list, oneOf, rate, settingsGroup } from '../config/settings';
import { tenantShare } from '../drivers/config';

const moduleJobWorkers = int('MODULE_JOBS_WORKERS', { default: 4, min: 1 }, 'Module job attempts one node runs at once (all tenants and modules).');

export const moduleSettings = settingsGroup('kernel', {
  busRateLimit: rate('BUS_RATE_LIMIT', { default: '6000/60' }, 'Bus calls per (tenant, caller, operation) and window.'),
  workflowStepRateLimit: rate('WORKFLOW_STEP_RATE_LIMIT', { default: '120000/60' }, 'The same for workflow steps (caller `edge:workflow`), per (tenant, operation) and window: the engine schedules steps under its fair share and a refused step waits for the budget instead of failing (core/services/workflows/README.md, Execution model), so this bounds a runaway rather than a caller.'),
  publicTokenLimit: int('PUBLIC_TOKEN_LIMIT', { default: 1000, min: 1 }, "Tokens a tenant may hold per module for the module's public routes (`public_tokens.register`); more are refused with 422 until some are revoked."),
  publicMissRateLimit: rate('PUBLIC_MISS_RATE_LIMIT', { default: '30/60' }, 'Requests per client address and window to public module routes (`/api/<prefix>/...`) that match no registered token, and to `POST /api/webhooks/workflows/{token}` with an unknown token (one budget for both); past it, such requests get 429, so tokens cannot be guessed by trying.'),
  busValidateOutput: bool('BUS_VALIDATE_OUTPUT', { default: (get) => get(nodeEnv) !== 'production', shown: 'on outside production' }, "Check each operation's result against its declared output schema; a result that breaks it fails the call with 500 `OUTPUT_INVALID` (details: the JSON pointers at fault) and is logged with the module and operation. Off saves the check's cost ([docs/perf/history.md](../perf/history.md), Bus)."),
  eventDelivery: {
    attempts: int('EVENT_DELIVERY_ATTEMPTS', { default: 5, min: 1 }, 'Attempts to deliver one module event to one subscriber (DESIGN.md, Bus: at least once) before it is given up and logged.'),
    backoffMs: int('EVENT_RETRY_BACKOFF_MS', { default: 1000, min: 0 }, 'Event delivery backoff: retry n waits (2ⁿ − 1) × this after the failure (1 s, 3 s, 7 s, 15 s by default). `createTestHost` uses 100.'),
  },
  /** core/kernel/modules/module-jobs.ts. */
  moduleJobs: {
    maxPending: int('MODULE_JOBS_MAX_PENDING', { default: 1000, min: 1 }, 'Module jobs (manifest `jobs`) pending or running per tenant and module; `jobs.enqueue` beyond it gets 429 `TOO_MANY_JOBS`.'),
    maxDataBytes: int('MODULE_JOBS_MAX_DATA_BYTES', { default: 65_536, min: 1024 }, 'Largest `data` of one module job, in bytes of JSON (413 `JOB_PAYLOAD_TOO_LARGE`); keep big inputs in `host.db` and pass their id.'),
    workers: moduleJobWorkers,
    tenantWorkers: tenantShare('MODULE_JOBS_TENANT_WORKERS', moduleJobWorkers, 'half of `MODULE_JOBS_WORKERS`, rounded up (`2`)', "Of those workers, how many one tenant's jobs (all its modules) may hold while another tenant's jobs are due; alone, a tenant uses them all. See [**Jobs**](manifest.md#jobs) and [how tenants share them](../architecture/drivers.md#jobs-and-workflow-runs-shared-fairly)."),
  },
  modulePaths: list('MODULE_PATHS', { separator: ':', map: (p) => path.resolve(p) }, 'Built module folders (`:`-separated) registered at boot, e.g. `modules/loyalty`; tenants then install them.'),
  moduleDbRoles: oneOf('MODULE_DB_ROLES', MODULE_DB_ROLES, { default: 'required' }, "Module migrations run as a PostgreSQL role per module, which needs a database user with `SUPERUSER` or `CREATEROLE` (the embedded PostgreSQL's user has it). `required`: without that right, installing a module with migrations fails with `DB_ROLES_REQUIRED`. `fallback-for-development`: runs them as the platform's database user instead, where nothing but the host's checks keeps a migration out of core's and other modules' tables; never in production. See core/kernel/module-data/README.md, Roles."),
  // isolated-vm refuses isolates under 8 MB.
  sandboxMaxMemoryMb: int('SANDBOX_MAX_MEMORY_MB', { default: 128, min: 8 }, 'Most isolate memory a module may ask for (`limits.memory_mb`); a package or development module asking more is refused with 422 `MODULE_MEMORY_OVER_CAP` (at publish and registration), and versions published before are run at the cap.'),
  moduleStreamsPerTenant: int('MODULE_STREAMS_PER_TENANT', { default: 100, min: 1 }, 'Streamed module route responses (`response.kind: "stream"`) one tenant may have open at once on one node; more get 429 `STREAM_LIMIT`. Each holds a sandbox call and up to 1 MB waiting for its reader.'),
  moduleQuarantineSeconds: int('MODULE_QUARANTINE_SECONDS', { default: 3600, min: 1 }, 'How long a module version whose isolate V8 lost beyond recovery is refused on every node (503 `MODULE_QUARANTINED`); a super admin may lift it earlier (`DELETE /registry/quarantine/{alias@version}`).'),
});
