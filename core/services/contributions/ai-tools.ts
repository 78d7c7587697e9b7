/**
 * The AI tool list (spec 2, Tools; Tool discovery and permission enforcement): a tool is a bus
 * operation a module provides, {name, module, description}. An operation with `ai_tool: false` in its
 * manifest is not offered (internal work such as scheduled jobs), nor is one a public route dispatches
 * to (a gateway's callback, which checks its own signature and has no user), nor any operation of a
 * module that runs agents (its agents' own configuration: sdk/manifest/agent-tools.ts). A user sees only the tools they
 * could use: rule 2 infers a permission from the tool's name, and the operation's own `permission`
 * (which the bus enforces on every call) must be held too, so the list is never wider than what a
 * call would be allowed to do (rule 3).
 */
import { runsAgents, type Manifest } from '../../../sdk/manifest';

export interface ToolEntry {
  name: string;
  module: string;
  description: string;
}

/** A tool with the permissions a user needs to see it. */
export interface CatalogTool {
  tool: ToolEntry;
  needs: string[];
}

/**
 * Spec 2, Tool discovery rule 2, as worded: the first rule, in the spec's order, whose word the name
 * contains anywhere and in any case (`update_budget` contains "get": view; `bulkCreate`: create). The
 * name searched is the method, after `<module>.`: the module alias names the permission's module,
 * and an alias such as `budgets` must not decide the permission of every tool it has (docs/decisions/ai.md).
 */
const RULES: Array<[string[], string]> = [
  [['get', 'search', 'stats'], 'view'],
  [['create'], 'create'],
  [['update', 'process', 'reserve'], 'manage'],
  [['delete', 'cancel'], 'delete'],
];

export function inferredPermission(name: string): string {
  const dot = name.indexOf('.');
  const module = name.slice(0, dot);
  const method = name.slice(dot + 1).toLowerCase();
  const rule = RULES.find(([keys]) => keys.some((k) => method.includes(k)));
  return `${module}.${rule ? rule[1] : 'view'}`;
}

export function catalogTools(module: string, manifest: Pick<Manifest, 'api' | 'http'>): CatalogTool[] {
  if (runsAgents(manifest.api?.consumes)) return [];
  const publicOps = new Set((manifest.http?.routes ?? []).filter((r) => r.public).map((r) => r.operation));
  return (manifest.api?.provides ?? [])
    .filter((op) => op.ai_tool !== false && !publicOps.has(op.name))
    .map((op) => {
      const inferred = inferredPermission(op.name);
      return { tool: { name: op.name, module, description: op.description }, needs: op.permission && op.permission !== inferred ? [inferred, op.permission] : [inferred] };
    });
}
