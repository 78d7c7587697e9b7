/**
 * Ring admin API (issue 4 items 2-4 and 6), under /api/v1. Authorization: a platform super admin's
 * bearer token (no X-Tenant needed) for everything; a publisher token (`mndp_…`) may read rings, their
 * releases and manifests (GET /rings, /rings/{ring}, /rings/{ring}/manifests), nothing about tenants. Changes
 * are lifecycle operations run as jobs: they answer 202 {operation} once checked and queued
 * (refusals come back at once: 422 with `details.reasons`, 409 OPERATION_IN_PROGRESS when another
 * operation holds the module in that ring or tenant); add `?wait=true` to wait (up to 2 minutes) for
 * the outcome instead. Progress: GET /rings/operations/{id}, or the realtime event
 * `.module.operation` on the requester's `private-user.<id>` channel.
 *
 *   GET  /rings                                   {rings: [{name, position, description, tenants, release}]}
 *   POST /rings {name, position, description?}    → 201 {ring}
 *   GET  /rings/{ring}                            {ring, history: [release]} (newest first, ?limit)
 *   GET  /rings/{ring}/manifests                  {ring, release, fingerprint, cacheKey, modules: [{alias, version, manifest}]}
 *   GET  /rings/{ring}/tenants                    {tenants: [{id, name}]}
 *   POST /rings/{ring}/tenants {tenant}           move a tenant (id or alias) into the ring → 202 {operation}
 *   POST /rings/{ring}/promote {module, version, from?}   → 202 {operation}; 422 PROMOTION_REFUSED
 *   POST /rings/{ring}/rollback                   back to the previous release → 202 {operation}
 *   GET  /rings/operations?ring=&tenant=&limit=   {operations} newest first
 *   GET  /rings/operations/{id}                   {operation}
 *   GET  /rings/locks                             {locks}: lifecycle locks held now
 *   GET  /rings/tenants/{tenant}                  {tenant: {id, name, ring}, modules: [{alias, version, status, ring_version}]}
 *   POST /rings/tenants/{tenant}/modules/{alias}/install|upgrade|rollback {version?} → 202 {operation}
 *   DELETE /rings/tenants/{tenant}/modules/{alias}?purge=true                 → 202 {operation}
 *
 * A release: {id, ring, number, modules: {alias: version}, kind, changes: [{alias, from, to}],
 * previous_id, operation_id, created_by, created_at, fingerprint}. An operation: {id, kind, status
 * (queued|running|completed|failed), ring, module, version, tenant_id, params, progress: {done, total,
 * message, percent}, result, error: {code, message, status, details}, requested_by, created_at,
 * started_at, finished_at}.
 */
import type { RequestHandler, Response, Router } from 'express';
import type { CentralDb } from '../core/kernel/data/central-db';
import { invalid, notFound, ValidationError } from '../core/kernel/errors';
import { respondWithOperation, wantsWait } from '../core/kernel/modules/module-admin-routes';
import type { TenantService } from '../core/kernel/tenancy/tenant-service';
import { requireSuperAdmin } from '../core/kernel/auth/authenticate';
import { adminPrincipal } from '../registry/admin-auth';
import type { RingAssignments } from './assign';
import type { LifecycleLocks } from './locks';
import type { OperationView, Operations } from './operations';
import type { Promotions } from './promotion';
import type { Requester } from './ring-models';
import type { RingRollbacks } from './ring-rollback';
import type { RingService } from './ring-service';
import type { TenantLifecycle } from './tenant-lifecycle';

export interface RingRouteDeps {
  rings: RingService;
  operations: Operations;
  locks: LifecycleLocks;
  promotions: Promotions;
  rollbacks: RingRollbacks;
  assignments: RingAssignments;
  lifecycle: TenantLifecycle;
  tenants: TenantService;
  central: CentralDb;
  adminAuthenticated: RequestHandler;
}

function requester(res: Response): Requester {
  const p = adminPrincipal(res);
  return p.kind === 'admin' ? { kind: 'user', id: p.user.id, tenant_id: p.tenantId } : { kind: 'publisher', id: p.publisher.id };
}

function stringField(body: unknown, field: string, required: boolean): string | undefined {
  const v = (body as Record<string, unknown> | undefined)?.[field];
  if (v === undefined || v === null || v === '') {
    if (required) throw invalid(field, `The ${field} field is required.`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(field, `The ${field} must be a string.`);
  return v;
}

export function registerRingRoutes(api: Router, deps: RingRouteDeps): void {
  const { rings, operations, adminAuthenticated: auth } = deps;
  const admin = [auth, requireSuperAdmin];
  const answer = (res: Response, req: { query: Record<string, unknown> }, queued: OperationView) =>
    respondWithOperation(res, operations, queued, { wait: wantsWait(req.query, false), status: 200, body: (op) => ({ operation: op }) });
  const tenantOf = async (key: string) => {
    const ref = await deps.tenants.resolve(key);
    if (!ref) throw notFound(`Tenant "${key}" not found.`, { tenant: key });
    return ref;
  };

  api.get('/rings', auth, async (_req, res) => {
    res.json({ rings: await rings.list() });
  });

  api.post('/rings', ...admin, async (req, res) => {
    res.status(201).json({ ring: await rings.create((req.body ?? {}) as Record<string, unknown>) });
  });

  api.get('/rings/operations', ...admin, async (req, res) => {
    const tenant = typeof req.query.tenant === 'string' ? (await tenantOf(req.query.tenant)).id : undefined;
    const ring = typeof req.query.ring === 'string' ? req.query.ring : undefined;
    res.json({ operations: await operations.list({ tenantId: tenant, ring, limit: Number(req.query.limit) || 20 }) });
  });

  api.get('/rings/operations/:id', ...admin, async (req, res) => {
    res.json({ operation: await operations.require(String(req.params.id)) });
  });

  api.get('/rings/locks', ...admin, async (_req, res) => {
    res.json({ locks: await deps.locks.list() });
  });

  api.get('/rings/tenants/:tenant', ...admin, async (req, res) => {
    const ref = await tenantOf(String(req.params.tenant));
    const tenant = (await deps.central.models.Tenant.findByPk(ref.id))!;
    const release = (await rings.current(tenant.ring).catch(() => undefined))?.modules ?? {};
    const installs = await deps.central.models.ModuleInstall.findAll({ where: { tenant_id: ref.id }, order: [['alias', 'ASC']] });
    res.json({
      tenant: { id: tenant.id, name: tenant.name, ring: tenant.ring },
      modules: installs.map((i) => ({ alias: i.alias, version: i.version, status: i.status, ring_version: release[i.alias] ?? null })),
    });
  });

  for (const action of ['install', 'upgrade', 'rollback'] as const) {
    api.post(`/rings/tenants/:tenant/modules/:alias/${action}`, ...admin, async (req, res) => {
      const ref = await tenantOf(String(req.params.tenant));
      const queued = await deps.lifecycle.request({
        tenantId: ref.id,
        alias: String(req.params.alias),
        action,
        version: stringField(req.body, 'version', false),
        requestedBy: requester(res),
      });
      await answer(res, req, queued);
    });
  }

  api.delete('/rings/tenants/:tenant/modules/:alias', ...admin, async (req, res) => {
    const ref = await tenantOf(String(req.params.tenant));
    const queued = await deps.lifecycle.request({
      tenantId: ref.id,
      alias: String(req.params.alias),
      action: 'uninstall',
      purge: req.query.purge === 'true',
      requestedBy: requester(res),
    });
    await answer(res, req, queued);
  });

  api.get('/rings/:ring', auth, async (req, res) => {
    const name = String(req.params.ring);
    res.json({ ring: await rings.get(name), history: await rings.history(name, Number(req.query.limit) || 50) });
  });

  api.get('/rings/:ring/manifests', auth, async (req, res) => {
    res.json(await rings.releaseManifests(String(req.params.ring)));
  });

  api.get('/rings/:ring/tenants', ...admin, async (req, res) => {
    res.json({ tenants: await rings.tenantsIn(String(req.params.ring)) });
  });

  api.post('/rings/:ring/tenants', ...admin, async (req, res) => {
    const ref = await tenantOf(stringField(req.body, 'tenant', true)!);
    await answer(res, req, await deps.assignments.request(ref.id, String(req.params.ring), requester(res)));
  });

  api.post('/rings/:ring/promote', ...admin, async (req, res) => {
    const alias = stringField(req.body, 'module', false);
    const version = stringField(req.body, 'version', false);
    const errors: Record<string, string[]> = {};
    if (!alias) errors.module = ['The module field is required.'];
    if (!version) errors.version = ['The version field is required.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const queued = await deps.promotions.request({
      alias: alias!,
      version: version!,
      to: String(req.params.ring),
      from: stringField(req.body, 'from', false),
      requestedBy: requester(res),
    });
    await answer(res, req, queued);
  });

  api.post('/rings/:ring/rollback', ...admin, async (req, res) => {
    await answer(res, req, await deps.rollbacks.request(String(req.params.ring), requester(res)));
  });
}
