/**
 * Loads a built bundle the way the sandbox will (a plain script defining __mandi_module, with no Node
 * globals) and reports the handlers it exports, so `build` can compare them with the manifest, and
 * the declarations it exports (defineModule's declared form), from which `build` writes module.json.
 * node:vm is not a security boundary; it runs the author's own code on their machine, as their tests do.
 */
import vm from 'node:vm';

export interface BundleExports {
  operations: string[];
  events: string[];
  /** The module's declarations, as objects of the vm's realm; undefined for a handlers-only module. */
  declaration: unknown;
}

export function inspectBundle(code: string, filename: string): BundleExports {
  const context = vm.createContext({});
  const loaded: unknown = vm.runInContext(`${code}\n;globalThis.__mandi_module`, context, { filename, timeout: 5000 });
  const root = (loaded as { default?: unknown } | undefined)?.default ?? loaded;
  if (typeof root !== 'object' || root === null) {
    throw new Error('the bundle exports nothing: src/index.ts must `export default defineModule({ operations: { … } })`');
  }
  const { operations, events, declaration } = root as { operations?: unknown; events?: unknown; declaration?: unknown };
  if (typeof operations !== 'object' || operations === null) {
    throw new Error('the module export has no `operations` object: export default defineModule({ operations: { … } })');
  }
  return { operations: functionKeys(operations), events: functionKeys(events), declaration };
}

function functionKeys(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).filter((k) => typeof (value as Record<string, unknown>)[k] === 'function');
}
