/**
 * Registry admin API (issue 4 items 1 and 6), under /api/v1. Authorization: a platform super admin's
 * bearer token or a publisher token (`mndp_…`); no X-Tenant is needed. Errors use the platform shape
 * `{message, code, details?}`.
 *
 *   GET  /registry/modules                        → {modules: [{alias, latest, versions, description}]}
 *   GET  /registry/modules/{alias}                → {alias, versions: [package]}  (newest first)
 *   GET  /registry/modules/{alias}/{version}      → {package, manifest}
 *   GET  /registry/modules/{alias}/{version}/package
 *        the .tgz (application/gzip), after checking it against its recorded sha256 (500
 *        PACKAGE_INTEGRITY when the stored bytes were altered); headers X-Mandi-Sha256, Digest.
 *   POST /registry/packages                       body: the .tgz bytes (Content-Type application/gzip
 *        or application/octet-stream, up to 20 MB); headers X-Mandi-Signature: base64 ed25519
 *        signature of the bytes (required when the publisher registered a key), X-Mandi-Publisher:
 *        publisher name (super admins only; a publisher token publishes as itself)
 *        → 201 {package}; 422 PACKAGE_INVALID {issues} / SIGNATURE_REQUIRED / SIGNATURE_INVALID /
 *        SIGNATURE_UNVERIFIABLE / MODULE_MEMORY_OVER_CAP (limits.memory_mb over SANDBOX_MAX_MEMORY_MB) /
 *        ROUTES_OVERLAP {reasons} (a route that could take requests of a module a ring releases);
 *        409 VERSION_EXISTS; 409 PUBLIC_PREFIX_TAKEN {prefix, owner, owned_prefix} (an http.public
 *        prefix another module owns on the platform); 403 ALIAS_OWNED (alias of another publisher).
 *   GET  /registry/publishers                     super admin → {publishers}
 *   POST /registry/publishers {name, public_key?} super admin → 201 {publisher, token} (token shown once)
 *   PUT  /registry/publishers/{name}/key {public_key|null}   super admin → {publisher}
 *   POST /registry/publishers/{name}/token        super admin → {token} (the old one stops working)
 *
 * A package: {alias, version, description, sha256, size, publisher, signed, compatible,
 * platform_range, published_by, published_at}. `compatible` says whether this core's platform version
 * is in the package's range: an incompatible version may be published (ahead of a core upgrade) but
 * never installed or promoted.
 */
import express, { type RequestHandler, type Router } from 'express';
import { registryErrors } from './errors';
import { DEFAULT_PACKAGE_LIMITS } from '../sdk/package';
import { requireSuperAdmin } from '../core/kernel/auth/authenticate';
import { actorLabel, adminPrincipal } from './admin-auth';
import type { Publishers } from './publishers';
import type { RegistryService } from './registry-service';

export interface RegistryRouteDeps {
  registry: RegistryService;
  publishers: Publishers;
  adminAuthenticated: RequestHandler;
}

const PACKAGE_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream', 'application/x-tar+gzip'];

export function registerRegistryRoutes(api: Router, deps: RegistryRouteDeps): void {
  const { registry, publishers, adminAuthenticated: auth } = deps;
  const raw = express.raw({ type: PACKAGE_TYPES, limit: DEFAULT_PACKAGE_LIMITS.maxCompressedBytes });

  api.get('/registry/modules', auth, async (_req, res) => {
    res.json({ modules: await registry.list() });
  });

  api.get('/registry/modules/:alias', auth, async (req, res) => {
    const alias = String(req.params.alias);
    res.json({ alias, versions: await registry.versions(alias) });
  });

  api.get('/registry/modules/:alias/:version', auth, async (req, res) => {
    const row = await registry.require(String(req.params.alias), String(req.params.version));
    res.json({ package: await registry.view(row), manifest: row.manifest });
  });

  api.get('/registry/modules/:alias/:version/package', auth, async (req, res) => {
    const { buffer, row } = await registry.download(String(req.params.alias), String(req.params.version));
    res.set({
      'Content-Type': 'application/gzip',
      'Content-Disposition': `attachment; filename="${row.alias}-${row.version}.tgz"`,
      'X-Mandi-Sha256': row.sha256,
      Digest: `sha-256=${Buffer.from(row.sha256, 'hex').toString('base64')}`,
    });
    res.send(buffer);
  });

  api.post('/registry/packages', auth, raw, async (req, res) => {
    if (!Buffer.isBuffer(req.body) || !req.body.length) {
      throw registryErrors.packageRequired();
    }
    const principal = adminPrincipal(res);
    const signature = req.get('x-mandi-signature')?.trim() || undefined;
    const named = req.get('x-mandi-publisher')?.trim() || undefined;
    let publisher;
    if (principal.kind === 'publisher') {
      if (named && named !== principal.publisher.name) throw registryErrors.ownPublisherOnly();
      publisher = principal.publisher;
    } else if (named) {
      publisher = await publishers.byName(named);
    }
    const pkg = await registry.publish({
      buffer: req.body,
      signature,
      publisher,
      publishedBy: actorLabel(principal),
      enforceOwnership: principal.kind === 'publisher',
    });
    res.status(201).json({ package: pkg });
  });

  api.get('/registry/publishers', auth, requireSuperAdmin, async (_req, res) => {
    res.json({ publishers: await publishers.list() });
  });

  api.post('/registry/publishers', auth, requireSuperAdmin, async (req, res) => {
    const body = (req.body ?? {}) as { name?: unknown; public_key?: unknown };
    res.status(201).json(await publishers.create(body.name, body.public_key));
  });

  api.put('/registry/publishers/:name/key', auth, requireSuperAdmin, async (req, res) => {
    const body = (req.body ?? {}) as { public_key?: unknown };
    res.json({ publisher: await publishers.setKey(String(req.params.name), body.public_key) });
  });

  api.post('/registry/publishers/:name/token', auth, requireSuperAdmin, async (req, res) => {
    res.json({ token: await publishers.rotateToken(String(req.params.name)) });
  });
}
