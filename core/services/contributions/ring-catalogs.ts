/**
 * Catalogs per ring (DESIGN.md, Rings and the registry): assembled from the manifests of the ring's
 * current release and cached under `<ring>:<fingerprint of aliases@versions>`. Which key is current
 * for a ring is remembered until the ring's release changes: `onReleaseChanged` reaches every node,
 * which then forgets it, so the next request assembles the new release. A build that was running
 * when the release changed is not remembered (a generation count per ring tells).
 */
import { LRUCache } from 'lru-cache';
import type { Manifest } from '../../../sdk/manifest';
import { SingleFlight } from '../../kernel/drivers/cache/single-flight';
import type { Logger } from '../../kernel/logger';
import { Catalog, modulePart, type ModulePart } from './catalog';

/** What the catalogs need of rings/ring-service.ts. */
export interface ReleaseSource {
  releaseManifests(ring: string): Promise<{ cacheKey: string; modules: Array<{ alias: string; version: string; manifest: Manifest }> }>;
  onReleaseChanged(listener: (change: { ring: string }) => void): Promise<unknown>;
}

/** Parts by `alias@version`: immutable, so shared by every catalog that holds that version. */
export class ModuleParts {
  private readonly parts = new LRUCache<string, ModulePart>({ max: 2_000 });

  of(manifest: Manifest): ModulePart {
    const key = `${manifest.name}@${manifest.version}`;
    let part = this.parts.get(key);
    if (!part) this.parts.set(key, (part = modulePart(manifest)));
    return part;
  }
}

export class RingCatalogs {
  private readonly catalogs = new LRUCache<string, Catalog>({ max: 200 });
  private readonly current = new Map<string, string>();
  private readonly generation = new Map<string, number>();
  private readonly builds = new SingleFlight();

  constructor(private readonly deps: { releases: ReleaseSource; parts: ModuleParts; logger: Logger }) {}

  /** Subscribes to release changes; call once before serving. */
  async start(): Promise<void> {
    await this.deps.releases.onReleaseChanged(({ ring }) => this.forget(ring));
  }

  /** The catalog of the ring's current release. */
  async forRing(ring: string): Promise<Catalog> {
    const key = this.current.get(ring);
    const cached = key ? this.catalogs.get(key) : undefined;
    if (cached) return cached;
    const generation = this.generation.get(ring) ?? 0;
    return this.builds.run(`${ring}#${generation}`, async () => {
      const release = await this.deps.releases.releaseManifests(ring);
      const catalog = this.catalogs.get(release.cacheKey) ?? new Catalog(release.cacheKey, release.modules.map((m) => this.deps.parts.of(m.manifest)));
      this.catalogs.set(release.cacheKey, catalog);
      if ((this.generation.get(ring) ?? 0) === generation) this.current.set(ring, release.cacheKey);
      return catalog;
    });
  }

  /** Forgets which release is current for the ring (the next request reads it again). */
  forget(ring: string): void {
    this.generation.set(ring, (this.generation.get(ring) ?? 0) + 1);
    this.current.delete(ring);
    this.deps.logger.debug({ ring }, 'ring release changed: catalogs will be reassembled');
  }

  /** Keys of the catalogs held now (for operators and tests). */
  keys(): string[] {
    return [...this.catalogs.keys()];
  }
}
