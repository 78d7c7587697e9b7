/**
 * Workflow node registry entries (spec 2, Resources: "Node registry entry" and "Category entry"),
 * made from a module manifest's `workflow.nodes[]`. The manifest names the identifier `type`; the
 * registry calls it `identifier` and adds the module. Ports and config get the defaults a client
 * needs so every entry has the same shape.
 *
 * No built-in nodes: the spec names node types `<module>:<slug>` (e.g. `workflows:send-email`), so
 * generic triggers and logic nodes belong to the module that runs workflows, declared in its
 * manifest like any other module's nodes (DESIGN.md: everything a tenant uses is a module).
 */
import type { CategoryEntry, ConfigSchema, NodeCategory, NodeEntry, NodeGroup, PortEntry } from '../../../sdk/contracts/workflow-resources';
import type { NodePort, WorkflowNode } from '../../../sdk/manifest';

export const NODE_CATEGORIES = ['trigger', 'action', 'condition', 'transformer'] as const satisfies readonly NodeCategory[];

/** The four categories of spec 2 (Workflow: "nodes (trigger, action, condition, transformer)"). */
export const CATEGORY_ENTRIES: Readonly<Record<NodeCategory, CategoryEntry>> = {
  trigger: { label: 'Triggers', icon: 'zap', color: '#22c55e', description: 'Start a workflow: manually, on a schedule, from a webhook or on a platform event.' },
  action: { label: 'Actions', icon: 'play', color: '#3b82f6', description: 'Do something, such as calling a module operation.' },
  condition: { label: 'Conditions', icon: 'git-branch', color: '#f59e0b', description: 'Branch the workflow on a condition.' },
  transformer: { label: 'Transformers', icon: 'shuffle', color: '#8b5cf6', description: 'Reshape or compute data between steps.' },
};

const label = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/[_-]+/g, ' ');

function port(p: NodePort, input: boolean): PortEntry {
  return { name: p.name, label: p.label ?? label(p.name), type: p.type, ...(input ? { required: p.required ?? false } : {}) };
}

/** Ports a node has when its manifest names none: triggers take no input, conditions branch. */
function defaultPorts(category: NodeCategory): { inputs: NodePort[]; outputs: NodePort[] } {
  const inputs: NodePort[] = category === 'trigger' ? [] : [{ name: 'input', type: 'any', required: true }];
  const outputs: NodePort[] = category === 'condition' ? [{ name: 'true', type: 'any' }, { name: 'false', type: 'any' }] : [{ name: 'output', type: 'any' }];
  return { inputs, outputs };
}

export function nodeEntry(module: string, node: WorkflowNode): NodeEntry {
  const category = node.category as NodeCategory;
  const defaults = defaultPorts(category);
  const schema = node.configSchema ?? {};
  return {
    identifier: node.type,
    name: node.name,
    category,
    description: node.description,
    // Spec 2 gives every entry an icon and a hex colour: a node that sets none wears its category's.
    icon: node.icon ?? CATEGORY_ENTRIES[category].icon,
    color: node.color ?? CATEGORY_ENTRIES[category].color,
    module,
    inputs: (node.inputs ?? defaults.inputs).map((p) => port(p, true)),
    outputs: (node.outputs ?? defaults.outputs).map((p) => port(p, false)),
    configSchema: {
      ...schema,
      type: (schema.type as ConfigSchema['type']) ?? 'object',
      properties: (schema.properties as Record<string, ConfigSchema> | undefined) ?? {},
      required: (schema.required as string[] | undefined) ?? [],
    },
    defaultConfig: node.defaultConfig ?? {},
    operation: node.operation ?? null,
    event: node.event ?? null,
    effects: node.effects ?? 'external',
  };
}

/** Every category in spec order with its nodes (empty categories included, so palettes are stable). */
export function groupNodes(nodes: readonly NodeEntry[]): NodeGroup[] {
  return NODE_CATEGORIES.map((category) => ({ category, ...CATEGORY_ENTRIES[category], nodes: nodes.filter((n) => n.category === category) }));
}
