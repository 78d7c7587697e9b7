/**
 * POST /workflows/{id}/simulate (spec 2: "nothing persisted, no step with real-world effects runs";
 * Simulation result). Walks the graph like a run with the given data: nodes whose registry entry
 * says `effects: none` run on the bus as the requesting user (conditions pick real branches); the
 * others are stubbed with an empty output. Nothing is written: no execution, no log. A delay
 * node's suspension is not waited out. A merge waits for its branches as in a run (merge.ts); an
 * error workflow simulated without data gets a sample failed run's context (error-workflow.ts).
 */
import type { Catalog } from '../contributions/catalog';
import { isObject } from '../../kernel/is-object';
import { pathValue, placeholderPaths } from '../contributions/placeholders';
import { checkGraph } from './graph-check';
import { LIFECYCLE_EVENTS, placeholderValues, successors } from './engine';
import { ERROR_TRIGGER, type ErrorTriggerData } from './error-workflow';
import { readyFirst, withMergeInputs } from './merge';
import { nodeInput } from './node-input';
import type { SimulationResult, SimulationStep } from '../../../sdk/contracts/workflow-resources';
import type { Graph, RunContext } from './workflow';

export interface SimulateDeps {
  /** Runs a side-effect-free node's operation on the bus (as the requesting user). */
  call(operation: string, input: unknown): Promise<unknown>;
  /** The events a module declares it publishes (its manifest's events.publishes); none for an unknown one. */
  publishes(alias: string): Promise<readonly string[]>;
}

/** What an error trigger's output looks like, for a simulation given no data. */
const NIL = '00000000-0000-0000-0000-000000000000';
const SAMPLE_FAILURE: ErrorTriggerData = {
  execution_id: NIL, workflow_id: NIL, workflow_name: 'A failed workflow',
  failed_node: { id: NIL, label: 'Failed node', node_type: 'workflows:http-request' },
  error: { message: 'A sample failure', code: 'SAMPLE' }, trigger_data: {}, failed_at: new Date(0).toISOString(),
};

/** Each placeholder of a config that resolves to nothing, with where it is (`config.values.subject`). */
function unknownPlaceholders(config: unknown, values: Record<string, unknown>, at: string, out: Array<{ at: string; path: string }>): void {
  if (typeof config === 'string') {
    for (const path of placeholderPaths(config)) if (pathValue(values, path) === undefined) out.push({ at, path });
  } else if (Array.isArray(config)) config.forEach((c, i) => unknownPlaceholders(c, values, `${at}.${i}`, out));
  else if (isObject(config)) for (const [key, c] of Object.entries(config)) unknownPlaceholders(c, values, `${at}.${key}`, out);
}

/**
 * An event trigger following an event this workflow's own runs emit: every run emits
 * workflow.execution.completed / .failed, and a node's operation may emit its module's events. Such
 * a run would start itself, which the run chain rule refuses (./run-chain.ts).
 */
async function selfTriggerWarnings(g: Graph, catalog: Catalog, deps: SimulateDeps): Promise<string[]> {
  const event = g.workflow.trigger_type === 'event' ? g.workflow.trigger_config.event : undefined;
  if (typeof event !== 'string') return [];
  const refused = 'a run it starts that way would start itself and is refused (WORKFLOW_CHAIN_LOOP).';
  if (event.startsWith(LIFECYCLE_EVENTS)) return [`The trigger follows "${event}", which every run of a workflow emits, this one's too: ${refused}`];
  const warnings: string[] = [];
  for (const node of g.nodes) {
    const operation = catalog.node(node.node_type)?.operation;
    const alias = operation?.slice(0, operation.indexOf('.'));
    if (alias && (await deps.publishes(alias)).includes(event)) warnings.push(`The trigger follows "${event}", which node "${node.label}" (${operation}) may emit: ${refused}`);
  }
  return warnings;
}

export async function simulate(g: Graph, given: Record<string, unknown>, catalog: Catalog, deps: SimulateDeps): Promise<SimulationResult> {
  const sampled = Object.keys(given).length === 0 && g.nodes.some((n) => n.node_type === ERROR_TRIGGER);
  const data: Record<string, unknown> = sampled ? { ...SAMPLE_FAILURE } : given;
  const errors = checkGraph(g, catalog);
  const warnings: string[] = errors.length ? [] : await selfTriggerWarnings(g, catalog, deps);
  const steps: SimulationStep[] = [];
  const ctx: RunContext = { variables: {}, nodes: {} };
  if (!errors.length) {
    const queue = g.nodes.filter((n) => n.node_category === 'trigger').map((n) => n.id);
    const seen = new Set(queue);
    while (queue.length && !errors.length) {
      const id = queue.shift();
      const node = g.nodes.find((n) => n.id === id)!;
      const values = placeholderValues(data, g.workflow.trigger_type, ctx);
      const missing: Array<{ at: string; path: string }> = [];
      unknownPlaceholders(node.config, values, 'config', missing);
      for (const m of missing) warnings.push(`Node "${node.label}", ${m.at}: the placeholder {{${m.path}}} resolves to nothing and renders empty.`);
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
