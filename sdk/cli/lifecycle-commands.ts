/**
 * `mandi module publish | install | upgrade | rollback | uninstall`: publish a package to a platform's
 * registry, and run one tenant's module lifecycle there (as a job, followed with a progress bar).
 * The registry and ring API is documented in registry/registry-routes.ts and rings/ring-routes.ts.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { buildModule } from '../build/build-module';
import { needsBuild } from '../build/needs-build';
import { loadManifest } from '../manifest/validate';
import { packModule } from '../package/pack';
import { CliError, EXIT } from './api-client';
import { followOperation, type Operation } from './follow-operation';
import { invokedFrom } from './invoked-from';
import { detail, formatBytes, step } from './output';
import { clientFor, parseModuleRef, platformAction, withConnection, type ConnectionFlags } from './platform-command';
import { signPackage } from './sign';

/** The .tgz to publish: the file given, or the module folder packed (built first when stale). */
async function packageBytes(target: string): Promise<Buffer> {
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new CliError(`${target} does not exist`, EXIT.usage);
  if (info.isFile()) return readFile(target);
  // A declared module's module.json is written by the build: absent before the first one, and the
  // version it names is the declarations' only after it.
  let manifest = await loadManifest(target).catch(() => undefined);
  if (!manifest || (await needsBuild(target, manifest.main ?? 'dist/index.js'))) {
    manifest = (await buildModule(target)).manifest;
    step(`built ${manifest.name}@${manifest.version}`);
  }
  const packed = await packModule(target, { outDir: await mkdtemp(path.join(os.tmpdir(), 'mandi-publish-')) });
  step(`packed ${manifest.name}@${manifest.version} (${formatBytes(packed.size)})`);
  return packed.buffer;
}

interface TenantFlags extends ConnectionFlags {
  tenant: string;
  version?: string;
  purge?: boolean;
}

async function runTenantAction(action: 'install' | 'upgrade' | 'rollback' | 'uninstall', ref: string, flags: TenantFlags): Promise<void> {
  const client = clientFor(flags);
  const { alias, version: fromRef } = parseModuleRef(ref);
  const version = flags.version ?? fromRef;
  const tenant = encodeURIComponent(flags.tenant);
  const queued =
    action === 'uninstall'
      ? await client.request<{ operation: Operation }>('DELETE', `/rings/tenants/${tenant}/modules/${alias}${flags.purge ? '?purge=true' : ''}`)
      : await client.request<{ operation: Operation }>('POST', `/rings/tenants/${tenant}/modules/${alias}/${action}`, { json: version ? { version } : {} });
  const op = await followOperation(client, queued.operation, `${action} ${alias}`);
  const r = op.result ?? {};
  if (action === 'uninstall') step(`${alias} uninstalled from tenant ${flags.tenant}${r.purged ? ' (data purged)' : ' (data kept)'}`);
  else step(`${alias}@${String(r.version)} ${action === 'install' ? 'installed' : action === 'upgrade' ? 'upgraded' : 'rolled back'} in tenant ${flags.tenant}${r.from ? ` (was ${String(r.from)})` : ''}`);
  detail(`operation ${op.id}`);
}

export function registerLifecycleCommands(module: Command): void {
  withConnection(
    module
      .command('publish [path]')
      .description('publish a module folder (packed first) or a .tgz to the platform registry')
      .option('--key <file>', 'ed25519 private key (PEM) to sign the package with (default: $MANDI_SIGNING_KEY)')
      .option('--publisher <name>', 'publish as this publisher (super admin tokens; a publisher token is its own publisher)'),
  ).action(
    platformAction(async (target: string | undefined, flags: ConnectionFlags & { key?: string; publisher?: string }) => {
      const client = clientFor(flags);
      const bytes = await packageBytes(path.resolve(invokedFrom(), target ?? '.'));
      const keyFile = flags.key ?? process.env.MANDI_SIGNING_KEY;
      const headers: Record<string, string> = {};
      if (keyFile) headers['x-mandi-signature'] = await signPackage(bytes, path.resolve(invokedFrom(), keyFile));
      if (flags.publisher) headers['x-mandi-publisher'] = flags.publisher;
      const { package: pkg } = await client.request<{ package: Record<string, unknown> }>('POST', '/registry/packages', { body: bytes, headers });
      step(`published ${String(pkg.alias)}@${String(pkg.version)} to ${client.url}`);
      detail(`sha256     ${String(pkg.sha256)}`);
      detail(`size       ${String(pkg.size)} bytes`);
      detail(`signed     ${pkg.signed ? `yes (publisher ${String(pkg.publisher)})` : 'no'}`);
      if (!pkg.compatible) detail(`note       built for platform ${String(pkg.platform_range)}: this platform will not install or promote it`);
    }),
  );

  const tenantCommand = (name: 'install' | 'upgrade' | 'rollback' | 'uninstall', description: string) => {
    const cmd = withConnection(module.command(`${name} <module>`).description(description).requiredOption('--tenant <tenant>', 'tenant id or alias'));
    if (name !== 'uninstall') cmd.option('--version <version>', name === 'rollback' ? 'version to go back to (default: the previous one)' : 'version (must be the one the tenant\'s ring releases)');
    else cmd.option('--purge', 'drop the module\'s data too (default: kept for a reinstall)');
    cmd.action(platformAction((ref: string, flags: TenantFlags) => runTenantAction(name, ref, flags)));
  };
  tenantCommand('install', 'install a module for a tenant at the version its ring releases (module or module@version)');
  tenantCommand('upgrade', 'upgrade a tenant\'s module to the version its ring releases now');
  tenantCommand('rollback', 'roll a tenant\'s module back to an earlier version its ring released (down migrations run)');
  tenantCommand('uninstall', 'uninstall a module from a tenant (data kept unless --purge)');
}
