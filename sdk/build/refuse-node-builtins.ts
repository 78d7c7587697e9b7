/**
 * esbuild plugin: module code runs in an isolate with no Node.js, so an import of a Node builtin
 * ("fs", "node:crypto", …) fails the build with a message saying why and what to use instead, rather
 * than a bundle that breaks at its first call. A bare name that an installed package provides (e.g.
 * the "buffer" polyfill) is that package, and is bundled.
 */
import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';

const BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));
const CHECKING = Symbol('checking');

const SANDBOX_HINT = 'which does not exist in the module sandbox; use ctx.host instead (host.db for data, host.fetch for HTTP, host.log, host.now)';

/** `hint` says where the code runs and what to use instead (the sandbox by default; a console page runs in a browser). */
export function refuseNodeBuiltins(hint = SANDBOX_HINT): Plugin {
  return {
    name: 'mandi-refuse-node-builtins',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === CHECKING) return undefined;
        const bare = args.path.startsWith('node:') ? args.path.slice(5) : undefined;
        const root = args.path.split('/')[0];
        if (bare === undefined && !BUILTINS.has(root)) return undefined;
        if (bare === undefined) {
          // Same name as a builtin: allowed only when an installed package answers to it.
          const found = await build.resolve(args.path, {
            kind: args.kind,
            resolveDir: args.resolveDir,
            importer: args.importer,
            pluginData: CHECKING,
          });
          if (found.errors.length === 0 && !found.external) return { path: found.path, namespace: found.namespace };
        }
        return {
          errors: [
            {
              text: `imports the Node.js builtin "${args.path}", ${hint}`,
            },
          ],
        };
      });
    },
  };
}
