/**
 * POST /workflows/{id}/simulate (spec 2: "nothing persisted, no step with real-world effects runs";
 * Simulation result). Walks the graph like a run with the given data: nodes whose registry entry
 * says `effects: none` run on the bus as the requesting user (conditions pick real branches); the
 * others are stubbed with an empty output. Nothing is written: no execution, no log. A delay
 * node's suspension is not waited out. A merge waits for its branches as in a run (merge.ts); an
 * error workflow simulated without data gets a sample failed run's context (error-workflow.ts).
 */
import type { Catalog } from '../catalogs/catalog';
import { isObject } from '../is-object';
import { checkGraph } from './graph-check';
import { placeholderValues, successors } from './engine';
import { ERROR_TRIGGER, type ErrorTriggerData } from './error-workflow';
import { readyFirst, withMergeInputs } from './merge';
import { nodeInput } from './node-input';
import type { Graph, RunContext } from './workflow';

export interface SimulationStep {
  index: number;
  label: string;
  node_type: string;
  input: unknown;
  config: Record<string, unknown>;
  /** Ours, beyond the spec's step fields: what the node answered (`{}` when stubbed), for the editor's graph. */
  output: unknown;
  mode: 'executed' | 'stubbed';
  reason: string;
}

export interface SimulationResult {
  ok: boolean;
  errors: string[];
  warnings: string[];
  steps: SimulationStep[];
  unreached: string[];
  variables: Record<string, unknown>;
  executed: number;
  stubbed: number;
}

export interface SimulateDeps {
  /** Runs a side-effect-free node's operation on the bus (as the requesting user). */
  call(operation: string, input: unknown): Promise<unknown>;
}

/** What an error trigger's output looks like, for a simulation given no data. */
const NIL = '00000000-0000-0000-0000-000000000000';
const SAMPLE_FAILURE: ErrorTriggerData = {
  execution_id: NIL, workflow_id: NIL, workflow_name: 'A failed workflow',
  failed_node: { id: NIL, label: 'Failed node', node_type: 'workflows:http-request' },
  error: { message: 'A sample failure', code: 'SAMPLE' }, trigger_data: {}, failed_at: new Date(0).toISOString(),
};

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

function unknownPlaceholders(config: unknown, values: Record<string, unknown>, out: Set<string>): void {
  if (typeof config === 'string') {
    for (const m of config.matchAll(PLACEHOLDER)) {
      const v = m[1].split('.').reduce<unknown>((acc, k) => (isObject(acc) ? acc[k] : undefined), values);
      if (v === undefined) out.add(m[1]);
    }
  } else if (Array.isArray(config)) config.forEach((c) => unknownPlaceholders(c, values, out));
  else if (isObject(config)) Object.values(config).forEach((c) => unknownPlaceholders(c, values, out));
}

export async function simulate(g: Graph, given: Record<string, unknown>, catalog: Catalog, deps: SimulateDeps): Promise<SimulationResult> {
  const sampled = Object.keys(given).length === 0 && g.nodes.some((n) => n.node_type === ERROR_TRIGGER);
  const data: Record<string, unknown> = sampled ? { ...SAMPLE_FAILURE } : given;
  const errors = checkGraph(g, catalog);
  const warnings: string[] = [];
  const steps: SimulationStep[] = [];
  const ctx: RunContext = { variables: {}, nodes: {} };
  if (!errors.length) {
    const queue = g.nodes.filter((n) => n.node_category === 'trigger').map((n) => n.id);
    const seen = new Set(queue);
    while (queue.length && !errors.length) {
      const id = queue.shift();
      const node = g.nodes.find((n) => n.id === id)!;
      const values = placeholderValues(data, g.workflow.trigger_type, ctx);
      const missing = new Set<string>();
      unknownPlaceholders(node.config, values, missing);
      for (const p of missing) warnings.push(`Node "${node.label}": the placeholder {{${p}}} resolves to nothing and renders empty.`);
      const entry = catalog.node(node.node_type)!;
      const input = node.node_category === 'trigger' ? data : withMergeInputs(g, node, ctx, nodeInput(node.config, values, entry));
      let output: unknown = {};
      let mode: SimulationStep['mode'] = 'stubbed';
      let reason: string;
      if (node.node_category === 'trigger') {
        output = data;
        mode = 'executed';
        reason = sampled && node.node_type === ERROR_TRIGGER ? "error trigger: its output is a sample failed run's context (no data given)" : 'trigger: its output is the given data';
      } else if (entry.effects === 'none' && entry.operation) {
        try {
          output = await deps.call(entry.operation, input ?? {});
          mode = 'executed';
          reason = 'free of side effects (effects: none)';
        } catch (err) {
          errors.push(`Node "${node.label}" failed: ${err instanceof Error ? err.message : String(err)}`);
          reason = 'failed';
        }
      } else reason = `stubbed: ${entry.operation ?? node.node_type} may have real-world effects`;
      steps.push({ index: steps.length, label: node.label, node_type: node.node_type, input: input ?? null, config: node.config, output, mode, reason });
      ctx.nodes[node.label] = { output };
      if (isObject(output) && isObject(output.variables) && node.node_type.startsWith('workflows:')) Object.assign(ctx.variables, output.variables);
      // A stubbed branching node has no real answer: every way out is walked.
      for (const id of mode === 'stubbed' ? successors(g, node.id, undefined) : successors(g, node.id, output)) {
        if (!seen.has(id)) {
          seen.add(id);
          queue.push(id);
        }
      }
      // A merge waits for the branches that can still reach it, as in a run.
      const done = new Set(g.nodes.filter((n) => ctx.nodes[n.label] !== undefined).map((n) => n.id));
      queue.splice(0, queue.length, ...readyFirst(g, queue, done));
    }
  }
  const reached = new Set(steps.map((s) => s.label));
  const executed = steps.filter((s) => s.mode === 'executed').length;
  return {
    ok: errors.length === 0, errors, warnings, steps, unreached: g.nodes.filter((n) => !reached.has(n.label)).map((n) => n.label),
    variables: ctx.variables, executed, stubbed: steps.length - executed,
  };
}
