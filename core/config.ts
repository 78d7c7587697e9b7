/**
 * Configuration: every setting comes from one environment variable, parsed here once.
 * docs/reference/environment.md lists the same names; keep the two in step.
 */
import path from 'node:path';
import { parseCorsOrigins, type CorsOrigins } from './http/cors';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy';
import { MODULE_DB_ROLES, type ModuleDbRoles } from './module-data/types';
import { partRef } from './parts';

export interface Config {
  env: 'production' | 'development' | 'test';
  port: number;
  host: string;
  /** Public base URL used in links (emails, download URLs). */
  appUrl: string;
  /** Tenants are served at `<sub>.<rootDomain>`. */
  rootDomain: string;
  /** Unset: embedded PostgreSQL under dataDir. */
  databaseUrl: string | undefined;
  /** Unset: in-process queue, cache, rate limiter and pub/sub. */
  redisUrl: string | undefined;
  /** Namespace of every Redis key and channel, so deployments can share a Redis. */
  redisPrefix: string;
  /** bull job lock and stalled-job check (REDIS_URL set): a dead node's jobs move on within their sum. */
  queueLockMs: number;
  queueStalledCheckMs: number;
  dataDir: string;
  /** Port of the embedded PostgreSQL when DATABASE_URL is unset. */
  embeddedPgPort: number;
  /** Name of the central database. */
  centralDbName: string;
  logLevel: string;
  /** Expose error stacks in responses (never in production). */
  debugErrors: boolean;
  bodyLimit: string;
  /** CORS_ORIGINS: who may call the API from a browser page of another origin (core/http/cors.ts). */
  corsOrigins: CorsOrigins;
  /** TRUST_PROXY: peers whose X-Forwarded-For names the client's address (core/http/trust-proxy.ts). */
  trustProxy: TrustProxy;
  /**
   * Total connections across all tenant pools, reserved TENANT_POOL_MAX per open pool. The default
   * keeps 12 pools open: a chain order at spec 3's max_chain_depth (10) passes through 11 tenants in
   * one request (forward, accept, the state handed down), and with fewer pools than that the least
   * recently used one closes at every level, each reopened with a new connection.
   */
  tenantPoolMaxTotal: number;
  /** Connections per tenant pool. */
  tenantPoolMax: number;
  /** A tenant pool unused this long is closed. */
  tenantPoolIdleMs: number;
  /** Lifetime of access tokens issued by POST /auth/login, in seconds (0 = no expiry). */
  tokenTtlSeconds: number;
  /** Seconds to wait for in-flight requests on shutdown. */
  shutdownGraceMs: number;
  graphqlIntrospection: boolean;
  /** GraphQL gateway (spec 1 Limits, GraphQL rules 9 and playground): limits, schema cache TTL, playground. */
  graphql: {
    limits: { depth: number; complexity: number; aliases: number };
    schemaCacheTtlSeconds: number;
    /** Serve GET /graphql/playground (default: on outside production; a tenant setting can turn it on). */
    playground: boolean;
  };
  /** Built module folders loaded at boot (MODULE_PATHS, separated by ':'). */
  modulePaths: string[];
  /** MODULE_DB_ROLES: without CREATEROLE, module migrations are refused ('required') or run as the platform's user (development only). */
  moduleDbRoles: ModuleDbRoles;
  /** Highest `limits.memory_mb` a module may declare; higher is refused at publish and registration. */
  sandboxMaxMemoryMb: number;
  /** How long a module version that crashed its isolate beyond recovery is refused on every node. */
  moduleQuarantineSeconds: number;
  /** Streamed module route responses open at once per tenant on one node; more get 429 STREAM_LIMIT. */
  moduleStreamsPerTenant: number;
  /** How long the backend caches a server-driven screen definition, in seconds (spec 1, Limits). */
  screenDefinitionTtlSeconds: number;
  /** Requests per user and window on the standard workflow endpoints (spec 2, Limits: 60 per minute). */
  workflowRateLimit: { points: number; durationSeconds: number };
  /** Spec 2 Limits: execute endpoints (execute, test, simulate, retry) and the public webhook trigger, per user / per token. */
  workflowExecuteRateLimit: { points: number; durationSeconds: number };
  workflowWebhookRateLimit: { points: number; durationSeconds: number };
  /** Workflow executions run at once per node (core/workflows/engine.ts). */
  workflowWorkers: number;
  /** Of those, how many one tenant may hold while another tenant's runs wait (fair share). */
  workflowTenantWorkers: number;
  /** How often each node sweeps for workflow runs nobody holds (core/workflows/run-sweeper.ts). */
  workflowSweepSeconds: number;
  /** How long a workflow run's lease lasts unless its worker renews it (core/workflows/run-leases.ts). */
  workflowRunLeaseSeconds: number;
  /** Runs a chain of workflow runs (events they emit, sub-workflow nodes) may hold before the next is refused (core/workflows/run-chain.ts). */
  workflowMaxChainDepth: number;
  /** Versions kept per workflow, besides those unfinished runs are pinned to (core/workflows/README.md, Versions). */
  workflowVersionsKeep: number;
  /** Webhook calls one tenant may have waiting for their run's end on one node (trigger_config.respond "last_node"); more get 429. */
  workflowWebhookWaitsPerTenant: number;
  /** Requests per client (a token that authenticates, else the address) and window on /api/v1. */
  apiRateLimit: { points: number; durationSeconds: number };
  /** Bus calls per (tenant, caller, operation) and window. */
  busRateLimit: { points: number; durationSeconds: number };
  /** Workflow steps' bus calls per (tenant, operation) and window (the engine waits when refused). */
  workflowStepRateLimit: { points: number; durationSeconds: number };
  /** Module broadcasts (realtime.broadcast) per tenant and module and window: each one fans out to every socket on its channel. */
  realtimeBroadcastRate: { points: number; durationSeconds: number };
  /** How often open sockets are checked again against their token, membership and channels (core/drivers/realtime.ts, recheck). */
  realtimeRecheckSeconds: number;
  /** Tokens a tenant may hold per module for its public routes (public_tokens.register). */
  publicTokenLimit: number;
  /** Requests per client address and window to /api/<prefix>/... that match no registered token (token guessing). */
  publicMissRateLimit: { points: number; durationSeconds: number };
  /** Check every operation result against its output schema (default: on outside production). */
  busValidateOutput: boolean;
  /** Module event deliveries: attempts per subscriber, and the first retry's delay (doubling after). */
  eventDelivery: { attempts: number; backoffMs: number };
  /**
   * Jobs modules enqueue (core/modules/module-jobs.ts): pending ones per tenant and module, data size,
   * workers per node, and how many of those one tenant may hold while another tenant's jobs wait.
   */
  moduleJobs: { maxPending: number; maxDataBytes: number; workers: number; tenantWorkers: number };
  /** Outgoing mail server, e.g. smtp://user:pw@host:587. Unset: mails go to <dataDir>/outbox. */
  smtpUrl: string | undefined;
  /** Sender of platform mails. */
  mailFrom: string;
  /** POST /auth/tenants (public signup) is refused unless this is on. */
  publicSignup: boolean;
  /** POST /reseller-register/apply (reseller applications) is refused unless this is on. */
  resellerSignup: boolean;
  /** Lifetime of email verification links, in seconds. */
  emailVerificationTtlSeconds: number;
  /** Base of the link in verification mails; a web client that serves /email/verify sets its own. */
  emailVerificationUrl: string;
  /** Base of the link in invitation mails (<base>/<token>); a web client that serves it sets its own. */
  invitationUrl: string;
  /**
   * The platform key (signed links, encrypted 2FA secrets, module secrets; core/secrets/key-source.ts).
   * Unset: generated on first start into <dataDir>/app.key. `base64:` prefix: the bytes it encodes.
   */
  appKey: string | undefined;
  /** APP_KEY_PREVIOUS: keys APP_KEY replaced, comma-separated; still decrypt until the rotation moved every value. */
  appKeyPrevious: string[];
  /** Client releases (spec 1): the platform default release channel that tenants inherit. */
  cliReleases: {
    defaultAdapter: 'hosted_repo' | 'static' | undefined;
    repoProject: string | undefined;
    repoApiUrl: string | undefined;
    /** Read-scoped service token of the hosted repository. */
    repoToken: string | undefined;
    staticManifestUrl: string | undefined;
    /** How long a fetched upstream manifest is reused (0: fetched on every request). */
    cacheSeconds: number;
  };
  /** Push delivery of notifications: the mobile push service (HTTP) and web push (VAPID). Unset: no push. */
  push: { url: string | undefined; token: string | undefined; vapidPrivateKey: string | undefined; vapidSubject: string };
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`Environment variable ${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** int() with a floor: a bull lock or check interval of 0 would make every running job look stalled. */
function atLeast(env: Env, name: string, fallback: number, min: number): number {
  const n = int(env, name, fallback);
  if (n < min) throw new Error(`Environment variable ${name} must be at least ${min}, got "${env[name]}"`);
  return n;
}

/**
 * Workers of a pool of `workers` that one tenant may hold while another tenant's jobs wait
 * (core/drivers/queue/fair-share.ts): by default half of them, rounded up.
 */
function tenantShare(env: Env, name: string, workers: number): number {
  return atLeast(env, name, Math.ceil(workers / 2), 1);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new Error(`Environment variable ${name} must be true or false, got "${raw}"`);
}

/** One of a fixed set of values, or undefined when unset. */
function choice<T extends string>(env: Env, name: string, values: readonly T[]): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!(values as readonly string[]).includes(raw)) throw new Error(`Environment variable ${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** "points/seconds", e.g. "600/60". */
function rate(env: Env, name: string, fallback: string): { points: number; durationSeconds: number } {
  const raw = env[name] || fallback;
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`Environment variable ${name} must look like "600/60" (points/seconds), got "${raw}"`);
  return { points: Number(m[1]), durationSeconds: Number(m[2]) };
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development';
  const port = int(env, 'PORT', 3000);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const appUrl = (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const workflowWorkers = atLeast(env, 'WORKFLOW_WORKERS', 16, 1);
  const moduleJobWorkers = atLeast(env, 'MODULE_JOBS_WORKERS', 4, 1);
  return {
    env: nodeEnv,
    port,
    host: env.HOST || '0.0.0.0',
    appUrl,
    rootDomain: (env.ROOT_DOMAIN || 'localhost').toLowerCase(),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'mandi',
    queueLockMs: atLeast(env, 'QUEUE_LOCK_MS', 30_000, 1000),
    queueStalledCheckMs: atLeast(env, 'QUEUE_STALLED_CHECK_MS', 5_000, 100),
    dataDir,
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329),
    centralDbName: env.CENTRAL_DB_NAME || 'mandi',
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    debugErrors: nodeEnv !== 'production' && bool(env, 'DEBUG_ERRORS', false),
    bodyLimit: env.BODY_LIMIT || '1mb',
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    tenantPoolMaxTotal: int(env, 'TENANT_POOL_MAX_TOTAL', 60),
    tenantPoolMax: int(env, 'TENANT_POOL_MAX', 5),
    tenantPoolIdleMs: int(env, 'TENANT_POOL_IDLE_MS', 60_000),
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 30 * 24 * 3600),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', false),
    graphql: {
      limits: {
        depth: int(env, 'GRAPHQL_LIMIT_DEPTH', 7),
        complexity: int(env, 'GRAPHQL_LIMIT_COMPLEXITY', 1000),
        aliases: int(env, 'GRAPHQL_LIMIT_ALIASES', 30),
      },
      schemaCacheTtlSeconds: int(env, 'GRAPHQL_SCHEMA_CACHE_TTL', 86_400),
      playground: bool(env, 'GRAPHQL_PLAYGROUND', nodeEnv !== 'production'),
    },
    modulePaths: (env.MODULE_PATHS || '').split(':').filter(Boolean).map((p) => path.resolve(p)),
    moduleDbRoles: choice(env, 'MODULE_DB_ROLES', MODULE_DB_ROLES) ?? 'required',
    // isolated-vm refuses isolates under 8 MB.
    sandboxMaxMemoryMb: atLeast(env, 'SANDBOX_MAX_MEMORY_MB', 128, 8),
    moduleQuarantineSeconds: atLeast(env, 'MODULE_QUARANTINE_SECONDS', 3600, 1),
    moduleStreamsPerTenant: atLeast(env, 'MODULE_STREAMS_PER_TENANT', 100, 1),
    screenDefinitionTtlSeconds: int(env, 'SCREEN_DEFINITION_CACHE_TTL', 300),
    workflowRateLimit: rate(env, 'WORKFLOW_RATE_LIMIT', '60/60'),
    workflowExecuteRateLimit: rate(env, 'WORKFLOW_EXECUTE_RATE_LIMIT', '30/60'),
    workflowWebhookRateLimit: rate(env, 'WORKFLOW_WEBHOOK_RATE_LIMIT', '120/60'),
    workflowWorkers,
    workflowTenantWorkers: tenantShare(env, 'WORKFLOW_TENANT_WORKERS', workflowWorkers),
    workflowSweepSeconds: atLeast(env, 'WORKFLOW_SWEEP_SECONDS', 10, 1),
    workflowRunLeaseSeconds: atLeast(env, 'WORKFLOW_RUN_LEASE_SECONDS', 60, 1),
    workflowMaxChainDepth: atLeast(env, 'WORKFLOW_MAX_CHAIN_DEPTH', 5, 1),
    workflowVersionsKeep: atLeast(env, 'WORKFLOW_VERSIONS_KEEP', 100, 2),
    workflowWebhookWaitsPerTenant: atLeast(env, 'WORKFLOW_WEBHOOK_WAITS_PER_TENANT', 20, 1),
    apiRateLimit: rate(env, 'API_RATE_LIMIT', '1200/60'),
    busRateLimit: rate(env, 'BUS_RATE_LIMIT', '6000/60'),
    workflowStepRateLimit: rate(env, 'WORKFLOW_STEP_RATE_LIMIT', '120000/60'),
    realtimeBroadcastRate: rate(env, 'REALTIME_BROADCAST_RATE', '100/1'),
    realtimeRecheckSeconds: atLeast(env, 'REALTIME_RECHECK_SECONDS', 30, 1),
    publicTokenLimit: atLeast(env, 'PUBLIC_TOKEN_LIMIT', 1000, 1),
    publicMissRateLimit: rate(env, 'PUBLIC_MISS_RATE_LIMIT', '30/60'),
    busValidateOutput: bool(env, 'BUS_VALIDATE_OUTPUT', nodeEnv !== 'production'),
    eventDelivery: { attempts: atLeast(env, 'EVENT_DELIVERY_ATTEMPTS', 5, 1), backoffMs: atLeast(env, 'EVENT_RETRY_BACKOFF_MS', 1000, 0) },
    moduleJobs: {
      maxPending: atLeast(env, 'MODULE_JOBS_MAX_PENDING', 1000, 1),
      maxDataBytes: atLeast(env, 'MODULE_JOBS_MAX_DATA_BYTES', 65_536, 1024),
      workers: moduleJobWorkers,
      tenantWorkers: tenantShare(env, 'MODULE_JOBS_TENANT_WORKERS', moduleJobWorkers),
    },
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || `Mandi <no-reply@${(env.ROOT_DOMAIN || 'localhost').toLowerCase()}>`,
    publicSignup: bool(env, 'PUBLIC_SIGNUP', false),
    resellerSignup: bool(env, 'RESELLER_SIGNUP', false),
    emailVerificationTtlSeconds: int(env, 'EMAIL_VERIFICATION_TTL_SECONDS', 24 * 3600),
    emailVerificationUrl: (env.EMAIL_VERIFICATION_URL || `${appUrl}/email/verify`).replace(/\/+$/, ''),
    invitationUrl: (env.INVITATION_URL || `${appUrl}/api/v1/invitations`).replace(/\/+$/, ''),
    appKey: env.APP_KEY || undefined,
    appKeyPrevious: (env.APP_KEY_PREVIOUS ?? '').split(',').map((k) => k.trim()).filter(Boolean),
    cliReleases: {
      defaultAdapter: choice(env, 'CLI_RELEASES_DEFAULT_ADAPTER', ['hosted_repo', 'static'] as const),
      repoProject: env.CLI_RELEASES_REPO_PROJECT || undefined,
      repoApiUrl: env.CLI_RELEASES_REPO_API_URL || undefined,
      repoToken: env.CLI_RELEASES_REPO_TOKEN || undefined,
      staticManifestUrl: env.CLI_RELEASES_STATIC_MANIFEST_URL || undefined,
      cacheSeconds: int(env, 'CLI_RELEASES_CACHE_SECONDS', 60),
    },
    push: {
      url: env.PUSH_URL || undefined,
      token: env.PUSH_TOKEN || undefined,
      vapidPrivateKey: env.VAPID_PRIVATE_KEY || undefined,
      vapidSubject: env.VAPID_SUBJECT || `mailto:no-reply@${(env.ROOT_DOMAIN || 'localhost').toLowerCase()}`,
    },
  };
}

/** The config as a part (core/parts), handed to the platform ready-made (`givenPart`). */
export const configRef = partRef<Config>('config');
