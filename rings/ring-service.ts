/**
 * Rings and their releases (DESIGN.md, Rings and the registry; issue 4 item 2). A ring holds one
 * current release, an alias → version map; every change makes a new release row, so the history is
 * complete and a ring rollback returns to the release before. Tenants belong to one ring
 * (`tenants.ring`, default stable).
 *
 * For catalogs (issue 4 item 5, built elsewhere): `releaseManifests(ring)` gives the manifests of the
 * ring's current release with a fingerprint of its alias@version pairs, the cache key being
 * `<ring>:<fingerprint>`; `onReleaseChanged` tells every node when a ring's release changes.
 */
import { createHash } from 'node:crypto';
import { QueryTypes, UniqueConstraintError, type Sequelize } from 'sequelize';
import type { CentralDb } from '../core/kernel/data/central-db';
import type { PubSub } from '../core/kernel/drivers';
import { notFound, ValidationError } from '../core/kernel/errors';
import { ringErrors } from './errors';
import type { Manifest } from '../sdk/manifest';
import type { RegistryService } from '../registry/registry-service';
import { withChange } from './release-checks';
import type { ReleaseChange, ReleaseModules, RingModels, RingRelease } from './ring-models';

const RELEASE_CHANNEL = 'mandi:rings:release';
const TENANT_MOVED_CHANNEL = 'mandi:rings:tenant-moved';
const NAME = /^[a-z][a-z0-9_-]{0,49}$/;
/** Words the admin API uses as path segments under /rings. */
const RESERVED = new Set(['tenants', 'operations', 'locks']);

export interface ReleaseView {
  id: number;
  ring: string;
  number: number;
  modules: ReleaseModules;
  kind: RingRelease['kind'];
  changes: ReleaseChange[];
  previous_id: number | null;
  operation_id: string | null;
  created_by: string | null;
  created_at: string;
  fingerprint: string;
}

export interface RingView {
  name: string;
  position: number;
  description: string | null;
  tenants: number;
  release: ReleaseView;
}

export interface ReleaseManifests {
  ring: string;
  release: { id: number; number: number };
  /** sha256 of the sorted alias@version pairs, first 16 hex digits (same as TenantModules'). */
  fingerprint: string;
  cacheKey: string;
  modules: Array<{ alias: string; version: string; manifest: Manifest }>;
}

export function releaseFingerprint(modules: ReleaseModules): string {
  const pairs = Object.entries(modules).map(([alias, version]) => `${alias}@${version}`).sort();
  return createHash('sha256').update(pairs.join(',')).digest('hex').slice(0, 16);
}

export function releaseView(r: RingRelease): ReleaseView {
  return {
    id: r.id,
    ring: r.ring,
    number: r.number,
    modules: r.modules,
    kind: r.kind,
    changes: r.changes,
    previous_id: r.previous_id,
    operation_id: r.operation_id,
    created_by: r.created_by,
    created_at: r.created_at.toISOString(),
    fingerprint: releaseFingerprint(r.modules),
  };
}

export class RingService {
  constructor(
    private readonly deps: { sequelize: Sequelize; models: RingModels; central: CentralDb; registry: RegistryService; pubsub: PubSub },
  ) {}

  async list(): Promise<RingView[]> {
    const rings = await this.deps.models.Ring.findAll({ order: [['position', 'ASC']] });
    const counts = await this.tenantCounts();
    const releases = await this.deps.models.Release.findAll({ where: { id: rings.map((r) => r.current_release_id!) } });
    const byId = new Map(releases.map((r) => [r.id, r]));
    return rings.map((r) => ({
      name: r.name,
      position: r.position,
      description: r.description ?? null,
      tenants: counts.get(r.name) ?? 0,
      release: releaseView(byId.get(r.current_release_id!)!),
    }));
  }

  async get(name: string): Promise<RingView> {
    const ring = await this.requireRing(name);
    const counts = await this.tenantCounts();
    return {
      name: ring.name,
      position: ring.position,
      description: ring.description ?? null,
      tenants: counts.get(ring.name) ?? 0,
      release: releaseView(await this.current(name)),
    };
  }

  async create(input: { name?: unknown; position?: unknown; description?: unknown }): Promise<RingView> {
    const errors: Record<string, string[]> = {};
    const name = typeof input.name === 'string' ? input.name : '';
    if (!NAME.test(name) || RESERVED.has(name)) errors.name = ['The name must be 1-50 lowercase letters, digits, "-" or "_", start with a letter, and not be tenants, operations or locks.'];
    if (!Number.isInteger(input.position)) errors.position = ['The position must be an integer (canary is 10, beta 20, stable 30).'];
    if (input.description !== undefined && input.description !== null && typeof input.description !== 'string') errors.description = ['The description must be a string.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const { models, sequelize } = this.deps;
    try {
      await sequelize.transaction(async (transaction) => {
        await models.Ring.create({ name, position: input.position as number, description: (input.description as string | undefined) ?? null }, { transaction });
        const release = await models.Release.create(
          { ring: name, number: 0, modules: {}, kind: 'initial', changes: [], previous_id: null, operation_id: null, created_by: null },
          { transaction },
        );
        await models.Ring.update({ current_release_id: release.id }, { where: { name }, transaction });
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) {
        const field = Object.keys(err.fields ?? {}).includes('position') ? 'position' : 'name';
        throw ringErrors.ringExists(field, name, input.position);
      }
      throw err;
    }
    return this.get(name);
  }

  async requireRing(name: string) {
    const ring = await this.deps.models.Ring.findByPk(name);
    if (!ring) throw notFound(`Ring "${name}" does not exist.`, { ring: name });
    return ring;
  }

  async current(ring: string): Promise<RingRelease> {
    const row = await this.deps.models.Ring.findByPk(ring, { attributes: ['current_release_id'] });
    if (!row) throw notFound(`Ring "${ring}" does not exist.`, { ring });
    return (await this.deps.models.Release.findByPk(row.current_release_id!))!;
  }

  async release(id: number): Promise<RingRelease | undefined> {
    return (await this.deps.models.Release.findByPk(id)) ?? undefined;
  }

  async history(ring: string, limit = 50): Promise<ReleaseView[]> {
    await this.requireRing(ring);
    const rows = await this.deps.models.Release.findAll({ where: { ring }, order: [['number', 'DESC']], limit: Math.min(Math.max(limit, 1), 500) });
    return rows.map(releaseView);
  }

  /** The version of `alias` the ring's current release holds, if any. */
  async releasedVersion(ring: string, alias: string): Promise<string | undefined> {
    return (await this.current(ring)).modules[alias];
  }

  /** Every version of `alias` the ring has ever released, newest release first. */
  async releasedEver(ring: string, alias: string): Promise<string[]> {
    const rows = await this.deps.sequelize.query<{ version: string; number: number }>(
      `SELECT DISTINCT ON (modules->>$2) modules->>$2 AS version, number FROM ring_releases WHERE ring = $1 AND modules->>$2 IS NOT NULL ORDER BY modules->>$2, number DESC`,
      { bind: [ring, alias], type: QueryTypes.SELECT },
    );
    return rows.sort((a, b) => b.number - a.number).map((r) => r.version);
  }

  /** The ring a tenant belongs to (read from the database, not a cache: rings change under load). */
  async ringOfTenant(tenantId: string): Promise<string> {
    const tenant = await this.deps.central.models.Tenant.findByPk(tenantId, { attributes: ['ring'] });
    if (!tenant) throw notFound(`Tenant ${tenantId} not found.`);
    await this.requireRing(tenant.ring);
    return tenant.ring;
  }

  async tenantsIn(ring: string): Promise<Array<{ id: string; name: string }>> {
    await this.requireRing(ring);
    const rows = await this.deps.central.models.Tenant.findAll({ where: { ring }, attributes: ['id', 'name'], order: [['id', 'ASC']] });
    return rows.map((t) => ({ id: t.id, name: t.name }));
  }

  /** Tenants of the ring with `alias` installed, in a stable order (by id), with their version. */
  async installedIn(ring: string, alias: string): Promise<Array<{ tenantId: string; version: string }>> {
    const rows = await this.deps.sequelize.query<{ tenant_id: string; version: string }>(
      `SELECT i.tenant_id, i.version FROM module_installs i JOIN tenants t ON t.id = i.tenant_id
       WHERE t.ring = $1 AND i.alias = $2 AND i.status = 'installed' ORDER BY i.tenant_id`,
      { bind: [ring, alias], type: QueryTypes.SELECT },
    );
    return rows.map((r) => ({ tenantId: r.tenant_id, version: r.version }));
  }

  /**
   * Makes a new current release for the ring: the release current at that moment with `changes`
   * applied. The ring row is locked for it, so operations on other modules of the ring, which run
   * side by side, each add their own change to what the others recorded and never write back the
   * release they read when they started. `check` sees both releases under the lock and may throw
   * to refuse.
   */
  async recordRelease(
    ring: string,
    change: {
      kind: 'promote' | 'rollback';
      changes: ReleaseChange[];
      check: (current: ReleaseModules, next: ReleaseModules) => Promise<void>;
      previousId: number | null;
      operationId: string | null;
      createdBy: string | null;
    },
  ): Promise<ReleaseView> {
    const { models, sequelize } = this.deps;
    const release = await sequelize.transaction(async (transaction) => {
      const locked = await models.Ring.findByPk(ring, { transaction, lock: transaction.LOCK.UPDATE });
      if (!locked) throw notFound(`Ring "${ring}" does not exist.`, { ring });
      const current = (locked.current_release_id ? await models.Release.findByPk(locked.current_release_id, { transaction }) : null)?.modules ?? {};
      const modules = change.changes.reduce((release, c) => withChange(release, c.alias, c.to), current);
      await change.check(current, modules);
    const last = (await models.Release.max<number, RingRelease>('number', { where: { ring }, transaction })) ?? 0;
      const row = await models.Release.create(
        {
          ring,
          number: last + 1,
          modules,
          kind: change.kind,
          changes: change.changes,
          previous_id: change.previousId,
          operation_id: change.operationId,
          created_by: change.createdBy,
        },
        { transaction },
      );
      await models.Ring.update({ current_release_id: row.id }, { where: { name: ring }, transaction });
      return row;
    });
    const view = releaseView(release);
    await this.deps.pubsub.publish(RELEASE_CHANNEL, { ring, release_id: view.id, fingerprint: view.fingerprint }).catch(() => undefined);
    return view;
  }

  /** The manifests of the ring's current release, for catalogs built per ring. */
  async releaseManifests(ring: string): Promise<ReleaseManifests> {
    const release = await this.current(ring);
    const modules: ReleaseManifests['modules'] = [];
    for (const [alias, version] of Object.entries(release.modules).sort(([a], [b]) => a.localeCompare(b))) {
      const row = await this.deps.registry.require(alias, version);
      modules.push({ alias, version, manifest: row.manifest });
    }
    const fingerprint = releaseFingerprint(release.modules);
    return { ring, release: { id: release.id, number: release.number }, fingerprint, cacheKey: `${ring}:${fingerprint}`, modules };
  }

  /** Records that a tenant now belongs to `ring` and tells every node (they cache tenants' rings). */
  async moveTenant(tenantId: string, ring: string): Promise<void> {
    await this.deps.central.models.Tenant.update({ ring }, { where: { id: tenantId } });
    await this.deps.pubsub.publish(TENANT_MOVED_CHANNEL, { tenant_id: tenantId, ring }).catch(() => undefined);
  }

  /** Calls `listener` on every node whenever a tenant moves to another ring. */
  async onTenantMoved(listener: (change: { tenant_id: string; ring: string }) => void): Promise<() => Promise<void>> {
    return this.deps.pubsub.subscribe(TENANT_MOVED_CHANNEL, (msg) => listener(msg as { tenant_id: string; ring: string }));
  }

  /** Calls `listener` on every node whenever any ring's release changes. */
  async onReleaseChanged(listener: (change: { ring: string; release_id: number; fingerprint: string }) => void): Promise<() => Promise<void>> {
    return this.deps.pubsub.subscribe(RELEASE_CHANNEL, (msg) => listener(msg as { ring: string; release_id: number; fingerprint: string }));
  }

  private async tenantCounts(): Promise<Map<string, number>> {
    const rows = await this.deps.sequelize.query<{ ring: string; n: string }>(`SELECT ring, count(*) AS n FROM tenants GROUP BY ring`, { type: QueryTypes.SELECT });
    return new Map(rows.map((r) => [r.ring, Number(r.n)]));
  }
}
