/**
 * GraphQL test helpers: the fixture modules (built with the sdk, loaded as real modules that run in
 * real sandboxes), installs through the admin API, and POST /api/v1/graphql over real HTTP.
 */
import { mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { needsBuild } from '../../sdk/build/needs-build';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import type { ApiResponse, TestPlatform } from '../support/test-platform';

export const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

/** Test files build the same fixtures in parallel workers: one build at a time, each only when stale. */
async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = path.join(__dirname, 'fixtures', '.build-lock');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (Date.now() > deadline) await rmdir(lock).catch(() => undefined); // a crashed run left it behind
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

export async function addFixtureModules(tp: TestPlatform, names: string[]): Promise<void> {
  await withBuildLock(async () => {
    for (const name of names) if (await needsBuild(fixture(name), 'dist/index.js')) await buildModule(fixture(name));
  });
  for (const name of names) tp.platform.kernel.source.add(await loadModuleFromDir(fixture(name)));
}

export async function installModule(tp: TestPlatform, token: string, tenant: string, alias: string, version?: string): Promise<void> {
  const res = await tp.api(`/modules/${alias}/install`, { token, tenant, body: version ? { version } : {} });
  if (res.status !== 201) throw new Error(`install ${alias} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export interface Who {
  token: string;
  tenant: string;
}

export interface GqlOptions {
  variables?: Record<string, unknown>;
  operationName?: string;
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function gql(tp: TestPlatform, who: Who, query: string | undefined, opts: GqlOptions = {}): Promise<ApiResponse> {
  const body: Record<string, unknown> = {};
  if (query !== undefined) body.query = query;
  if (opts.variables) body.variables = opts.variables;
  if (opts.operationName) body.operationName = opts.operationName;
  if (opts.extensions) body.extensions = opts.extensions;
  return tp.api('/graphql', { token: who.token, tenant: who.tenant, body, headers: opts.headers });
}

export async function setGatewaySettings(tp: TestPlatform, who: Who, body: Record<string, unknown>): Promise<ApiResponse> {
  const res = await tp.api('/graphql/settings', { method: 'PATCH', token: who.token, tenant: who.tenant, body });
  if (res.status !== 200) throw new Error(`settings failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** Field names of a root type, read by introspection. */
export async function rootFields(tp: TestPlatform, who: Who, type: 'Query' | 'Mutation'): Promise<Array<{ name: string; description: string | null; args: Array<{ name: string; type: { name: string | null } }>; type: { name: string | null } }>> {
  const res = await gql(tp, who, `{ __type(name: "${type}") { fields { name description args { name type { name } } type { name } } } }`);
  if (res.status !== 200) throw new Error(`introspection failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.__type?.fields ?? [];
}
