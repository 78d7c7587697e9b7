/**
 * Tenant admins manage their tenant's modules (permission `modules.manage`; issue 4 item 3). Each
 * change is a lifecycle operation run as a job (rings/): the request is checked at once (refusals
 * come back with their reasons and nothing is queued), then queued. By default the response waits for
 * the job (up to 2 minutes) and answers with its outcome; `?wait=false` answers 202 at once with the
 * operation to follow (GET /modules/operations/{id}, or the realtime event `.module.operation` on the
 * tenant channel `modules.operations`).
 *
 *   GET    /modules                      {ring, installed: [{alias, version, description, ring_version}],
 *                                         available: [{alias, versions, ring_version, source}]}
 *   POST   /modules/{alias}/install      {version?} → 201 {alias, version, from, operation_id}
 *   POST   /modules/{alias}/upgrade      {version?} → 200 {alias, version, from, operation_id}
 *   POST   /modules/{alias}/rollback     {version?} → 200 {alias, version, from, operation_id}
 *   DELETE /modules/{alias}?purge=true   → 200 {message, operation_id} (data kept unless purge)
 *   GET    /modules/operations           → {operations}: this tenant's, newest first (?limit=1-100)
 *   GET    /modules/operations/{id}      → {operation}
 * With ?wait=false each change answers 202 {operation}. A failed operation answers with its error's
 * status and `{message, code, details}`, `details.operation_id` naming the operation.
 *
 * For modules released through rings the tenant's ring decides the version (DESIGN.md, Rings and the
 * registry): install takes the ring's version, naming another is refused (VERSION_NOT_IN_RING), a
 * module the ring does not release is refused (MODULE_NOT_IN_RING). A module whose public prefix
 * another module owns on the platform is refused (409 PUBLIC_PREFIX_TAKEN {prefix, owner}).
 */
import type { RequestHandler, Response, Router } from 'express';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import { MandiError, invalid } from '../errors';

export type ModuleAction = 'install' | 'upgrade' | 'rollback' | 'uninstall';

export interface LifecycleOperationView {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
  error: { code: string; message: string; status: number; details?: Record<string, unknown> } | null;
}

/** What these routes need from the lifecycle (implemented in rings/). */
export interface ModuleLifecycle {
  overview(tenantId: string): Promise<Record<string, unknown>>;
  request(req: {
    tenantId: string;
    alias: string;
    action: ModuleAction;
    version?: string;
    purge?: boolean;
    requestedBy: { userId: number; tenantId: string };
  }): Promise<LifecycleOperationView>;
  wait(id: string, timeoutMs: number): Promise<LifecycleOperationView>;
  operation(id: string, tenantId: string): Promise<LifecycleOperationView>;
  operations(tenantId: string, limit: number): Promise<LifecycleOperationView[]>;
}

const WAIT_MS = 120_000;

/** ?wait=false → false; anything else (absent, true) → true. */
export function wantsWait(query: Record<string, unknown>, fallback = true): boolean {
  const w = query.wait;
  if (w === undefined) return fallback;
  return !(w === 'false' || w === '0' || w === 'no');
}

/**
 * Answers for a queued operation: 202 at once, or after waiting `status` with `body(result)` when it
 * completed, the operation's own error when it failed, 202 when it is still running after the wait.
 */
export async function respondWithOperation(
  res: Response,
  lifecycle: Pick<ModuleLifecycle, 'wait'>,
  queued: LifecycleOperationView,
  opts: { wait: boolean; status: number; body: (op: LifecycleOperationView) => unknown },
): Promise<void> {
  if (!opts.wait) {
    res.status(202).json({ operation: queued });
    return;
  }
  const op = await lifecycle.wait(queued.id, WAIT_MS);
  if (op.status === 'completed') {
    res.status(opts.status).json(opts.body(op));
    return;
  }
  if (op.status === 'failed' && op.error) {
    throw new MandiError(op.error.code, op.error.message, op.error.status, { ...(op.error.details ?? {}), operation_id: op.id });
  }
  res.status(202).json({ operation: op });
}

export function registerModuleAdminRoutes(api: Router, deps: { lifecycle: ModuleLifecycle; authenticated: RequestHandler }): void {
  const { lifecycle } = deps;
  const manage = requirePermission('modules.manage');
  const tenantId = () => currentContext()!.tenant!.id;
  const requestedBy = () => ({ userId: currentContext()!.user!.id, tenantId: tenantId() });

  const versionOf = (body: unknown): string | undefined => {
    const version = (body as { version?: unknown } | undefined)?.version;
    if (version !== undefined && version !== null && typeof version !== 'string') throw invalid('version', 'The version must be a string.');
    return (version as string | null | undefined) ?? undefined;
  };

  api.get('/modules', deps.authenticated, manage, async (_req, res) => {
    res.json(await lifecycle.overview(tenantId()));
  });

  api.get('/modules/operations', deps.authenticated, manage, async (req, res) => {
    const limit = Number(req.query.limit ?? 20);
    res.json({ operations: await lifecycle.operations(tenantId(), Number.isInteger(limit) ? limit : 20) });
  });

  api.get('/modules/operations/:id', deps.authenticated, manage, async (req, res) => {
    res.json({ operation: await lifecycle.operation(String(req.params.id), tenantId()) });
  });

  for (const [action, status] of [
    ['install', 201],
    ['upgrade', 200],
    ['rollback', 200],
  ] as const) {
    api.post(`/modules/:alias/${action}`, deps.authenticated, manage, async (req, res) => {
      const queued = await lifecycle.request({ tenantId: tenantId(), alias: String(req.params.alias), action, version: versionOf(req.body), requestedBy: requestedBy() });
      await respondWithOperation(res, lifecycle, queued, {
        wait: wantsWait(req.query),
        status,
        body: (op) => ({ alias: req.params.alias, version: op.result?.version ?? null, from: op.result?.from ?? null, operation_id: op.id }),
      });
    });
  }

  api.delete('/modules/:alias', deps.authenticated, manage, async (req, res) => {
    const queued = await lifecycle.request({
      tenantId: tenantId(),
      alias: String(req.params.alias),
      action: 'uninstall',
      purge: req.query.purge === 'true',
      requestedBy: requestedBy(),
    });
    await respondWithOperation(res, lifecycle, queued, {
      wait: wantsWait(req.query),
      status: 200,
      body: (op) => ({ message: op.result?.purged ? 'Module uninstalled and its data purged.' : 'Module uninstalled; its data is kept.', operation_id: op.id }),
    });
  });
}
