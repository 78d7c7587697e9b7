/**
 * The module registry (DESIGN.md, Rings and the registry; issue 4 item 1): publish a package,
 * list modules and versions, and hand out package bytes only after checking them against the
 * sha256 recorded at publish. A published version is final (409 on a second publish).
 */
import { createHash } from 'node:crypto';
import semver from 'semver';
import { UniqueConstraintError } from 'sequelize';
import { notFound } from '../core/kernel/errors';
import { registryErrors } from './errors';
import { assertMemoryWithin } from '../core/kernel/modules/loaded-module';
import type { Logger } from '../core/kernel/logger';
import { checkPlatform, ManifestError, PLATFORM_VERSION, type Manifest } from '../sdk/manifest';
import { PackageError, readPackage, type ModulePackage } from '../sdk/package';
import type { BlobStore } from './blob-store';
import type { RegistryModels, RegistryPackage, RegistryPublisher } from './registry-models';
import { parsePublicKey, verifyPackageSignature } from './signature';

export interface PublishRequest {
  buffer: Buffer;
  /** base64 ed25519 signature of `buffer`. */
  signature?: string;
  /** The publisher the package is published as (a publisher token's own, or named by an admin). */
  publisher?: RegistryPublisher;
  /** "user:<id>" or "publisher:<id>". */
  publishedBy: string;
  /** Publisher tokens may publish only aliases they own; super admins may publish any. */
  enforceOwnership: boolean;
}

export interface PackageView {
  alias: string;
  version: string;
  description: string | null;
  sha256: string;
  size: number;
  publisher: string | null;
  signed: boolean;
  /** Whether this core's platform version is inside the package's compatibility.platform range. */
  compatible: boolean;
  platform_range: string;
  published_by: string;
  published_at: string;
}

export const sha256Of = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');

/** A check a package must pass before it is stored; throws a MandiError to refuse it. */
export type PublishCheck = (manifest: Manifest) => Promise<void>;

export class RegistryService {
  /** Publisher id → name, for views; publishers are few and never renamed. */
  private readonly publisherNames = new Map<number, string>();
  private readonly publishChecks: PublishCheck[] = [];

  constructor(
    private readonly deps: { models: RegistryModels; blobs: BlobStore; logger: Logger; maxMemoryMb: number },
  ) {}

  async publish(req: PublishRequest): Promise<PackageView> {
    const pkg = await this.read(req.buffer);
    const { manifest } = pkg;
    assertMemoryWithin(manifest, this.deps.maxMemoryMb);
    const alias = manifest.name;
    const version = manifest.version;
    const range = manifest.compatibility?.platform;
    if (typeof range !== 'string' || semver.validRange(range) === null) {
      throw registryErrors.badPlatformRange(alias, version);
    }
    await this.checkOwnership(alias, req);
    this.checkSignature(req);
    if (await this.deps.models.Package.count({ where: { alias, version } })) throw registryErrors.versionExists(alias, version);
    for (const check of this.publishChecks) await check(manifest);

    const sha256 = sha256Of(req.buffer);
    await this.deps.blobs.put(sha256, req.buffer);
    let row: RegistryPackage;
    try {
      row = await this.deps.models.Package.create({
        alias,
        version,
        sha256,
        size: req.buffer.length,
        publisher_id: req.publisher?.id ?? null,
        signature: req.signature ?? null,
        manifest,
        published_by: req.publishedBy,
      });
    } catch (err) {
      // Two publishes of one version at once: the unique index lets exactly one win.
      if (err instanceof UniqueConstraintError) throw registryErrors.versionExists(alias, version);
      throw err;
    }
    this.deps.logger.info({ module: `${alias}@${version}`, sha256, size: row.size, by: req.publishedBy }, 'module package published');
    return this.view(row);
  }

  /** Adds a check every later publish runs (rings: routes against what the rings release). */
  addPublishCheck(check: PublishCheck): void {
    this.publishChecks.push(check);
  }

  /** Every module: its versions newest first and the newest version's description. */
  async list(): Promise<Array<{ alias: string; latest: string; versions: string[]; description: string | null }>> {
    const rows = await this.deps.models.Package.findAll({ attributes: ['alias', 'version', 'manifest'], order: [['alias', 'ASC']] });
    const byAlias = new Map<string, RegistryPackage[]>();
    for (const r of rows) byAlias.set(r.alias, [...(byAlias.get(r.alias) ?? []), r]);
    return [...byAlias.entries()].map(([alias, list]) => {
      const versions = semver.rsort(list.map((r) => r.version));
      const latest = list.find((r) => r.version === versions[0])!;
      return { alias, latest: versions[0], versions, description: latest.manifest.description ?? null };
    });
  }

  async versions(alias: string): Promise<PackageView[]> {
    const rows = await this.deps.models.Package.findAll({ where: { alias } });
    if (!rows.length) throw notFound(`Module ${alias} is not in the registry.`, { module: alias });
    const views = await Promise.all(rows.map((r) => this.view(r)));
    return views.sort((a, b) => semver.rcompare(a.version, b.version));
  }

  /** The package row, or undefined when that version was never published. */
  async find(alias: string, version: string): Promise<RegistryPackage | undefined> {
    return (await this.deps.models.Package.findOne({ where: { alias, version } })) ?? undefined;
  }

  async require(alias: string, version: string): Promise<RegistryPackage> {
    const row = await this.find(alias, version);
    if (!row) throw notFound(`Module ${alias}@${version} is not in the registry.`, { module: alias, version });
    return row;
  }

  /** Whether any version of the alias was published: such modules are released through rings. */
  async has(alias: string): Promise<boolean> {
    return (await this.deps.models.Package.count({ where: { alias } })) > 0;
  }

  async latestVersion(alias: string): Promise<string | undefined> {
    const rows = await this.deps.models.Package.findAll({ where: { alias }, attributes: ['version'] });
    return rows.length ? semver.rsort(rows.map((r) => r.version))[0] : undefined;
  }

  /** The package bytes, refused unless they still hash to what was recorded at publish. */
  async download(alias: string, version: string): Promise<{ buffer: Buffer; row: RegistryPackage }> {
    const row = await this.require(alias, version);
    const buffer = await this.deps.blobs.get(row.sha256);
    if (!buffer) {
      throw registryErrors.packageMissing(alias, version);
    }
    const actual = sha256Of(buffer);
    if (actual !== row.sha256) {
      this.deps.logger.error({ module: `${alias}@${version}`, expected: row.sha256, actual }, 'stored package does not match its sha256; refusing it');
      throw registryErrors.packageAltered(alias, version, row.sha256, actual);
    }
    return { buffer, row };
  }

  /** Downloaded, checked and unpacked (readPackage applies its safety limits again). */
  async load(alias: string, version: string): Promise<{ pkg: ModulePackage; row: RegistryPackage }> {
    const { buffer, row } = await this.download(alias, version);
    return { pkg: await this.read(buffer), row };
  }

  async view(row: RegistryPackage): Promise<PackageView> {
    const manifest: Manifest = row.manifest;
    return {
      alias: row.alias,
      version: row.version,
      description: manifest.description ?? null,
      sha256: row.sha256,
      size: row.size,
      publisher: row.publisher_id === null ? null : await this.publisherName(row.publisher_id),
      signed: row.signature !== null,
      compatible: checkPlatform(manifest, PLATFORM_VERSION) === null,
      platform_range: manifest.compatibility.platform,
      published_by: row.published_by,
      published_at: row.published_at.toISOString(),
    };
  }

  private async read(buffer: Buffer): Promise<ModulePackage> {
    try {
      return await readPackage(buffer);
    } catch (err) {
      if (err instanceof ManifestError) {
        throw registryErrors.manifestInvalid(err.message, err.errors);
      }
      if (err instanceof PackageError) throw registryErrors.packageUnreadable(err.message);
      throw err;
    }
  }

  private async checkOwnership(alias: string, req: PublishRequest): Promise<void> {
    if (!req.enforceOwnership) return;
    const first = await this.deps.models.Package.findOne({ where: { alias }, order: [['id', 'ASC']] });
    if (first && first.publisher_id !== (req.publisher?.id ?? null)) {
      throw registryErrors.aliasOwned(alias);
    }
  }

  /**
   * A publisher with a registered key signs every package; a signature nobody can check is refused
   * rather than stored as if it meant something.
   */
  private checkSignature(req: PublishRequest): void {
    const key = req.publisher?.public_key;
    if (!key) {
      if (req.signature) {
        throw registryErrors.signatureUnverifiable();
      }
      return;
    }
    if (!req.signature) {
      throw registryErrors.signatureRequired(req.publisher!.name);
    }
    if (!verifyPackageSignature(req.buffer, req.signature, parsePublicKey(key))) {
      throw registryErrors.signatureInvalid(req.publisher!.name);
    }
  }

  private async publisherName(id: number): Promise<string | null> {
    if (!this.publisherNames.has(id)) {
      const p = await this.deps.models.Publisher.findByPk(id, { attributes: ['name'] });
      if (!p) return null;
      this.publisherNames.set(id, p.name);
    }
    return this.publisherNames.get(id)!;
  }
}

