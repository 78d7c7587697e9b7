/** All loaded module versions of this process, by key (e.g. `orders@1.2.0`). */
import { SandboxError } from './errors';
import { resolveLimits } from './limits';
import { ModuleSandbox } from './module-sandbox';
import type { InvokeRequest, ModuleStats, SandboxLimits, SandboxRuntimeOptions } from './types';

export class SandboxRuntime {
  private readonly modules = new Map<string, ModuleSandbox>();
  private readonly onCatastrophicError: (key: string, message: string) => void;

  constructor(private readonly options: SandboxRuntimeOptions = {}) {
    this.onCatastrophicError =
      options.onCatastrophicError ??
      ((key, message) => process.emitWarning(`isolate of module ${key} failed beyond recovery: ${message}`, 'SandboxCatastrophicError'));
    resolveLimits(options.limits); // fail fast on bad defaults
  }

  /**
   * Compiles a module bundle; throws SandboxError SYNTAX_ERROR when it does not parse. Loading the
   * same key with the same code and limits returns the loaded sandbox; different code replaces it.
   */
  load(key: string, code: string, limits?: Partial<SandboxLimits>): ModuleSandbox {
    const resolved = resolveLimits(this.options.limits, limits);
    const existing = this.modules.get(key);
    if (existing && existing.code === code && sameLimits(existing.limits, resolved)) return existing;
    const sandbox = new ModuleSandbox(key, code, resolved, this.onCatastrophicError);
    existing?.dispose();
    this.modules.set(key, sandbox);
    return sandbox;
  }

  get(key: string): ModuleSandbox | undefined {
    return this.modules.get(key);
  }

  unload(key: string): void {
    this.modules.get(key)?.dispose();
    this.modules.delete(key);
  }

  dispose(): void {
    for (const sandbox of this.modules.values()) sandbox.dispose();
    this.modules.clear();
  }

  invoke(key: string, req: InvokeRequest): Promise<unknown> {
    const sandbox = this.modules.get(key);
    if (!sandbox) return Promise.reject(new SandboxError('NOT_FOUND', `No module is loaded as ${key}.`, { module: key }));
    return sandbox.invoke(req);
  }

  async stats(): Promise<Record<string, ModuleStats>> {
    const entries = await Promise.all([...this.modules].map(async ([key, sandbox]) => [key, await sandbox.stats()] as const));
    return Object.fromEntries(entries);
  }
}

const sameLimits = (a: SandboxLimits, b: SandboxLimits) =>
  (Object.keys(a) as (keyof SandboxLimits)[]).every((k) => a[k] === b[k]);
