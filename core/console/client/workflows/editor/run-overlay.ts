/**
 * What the graph shows on its nodes besides the workflow itself: a run's path (an execution's logs,
 * spec 2 Execution log: each node's last logged status, input and output), a simulation (spec 2,
 * Simulation result: the steps walked, executed or stubbed), or the errors of a validation or a save.
 * The API names a node in its messages by label (`Node "<label>": …`, core/services/workflows/graph-check.ts)
 * or, for a refused save, by its index in the body (`nodes.2.config`).
 */
import type { ExecutionLog, SimulationResult } from '../workflow-types';
import type { DraftNode } from './draft';

export interface NodeMark {
  status?: string;
  input?: unknown;
  output?: unknown;
  error?: string | null;
  /** A simulation step's mode and reason. */
  mode?: string;
  reason?: string;
  problems: string[];
}

export interface Overlay {
  kind: 'execution' | 'simulation' | 'validation';
  title: string;
  /** By node key. */
  marks: Map<string, NodeMark>;
  /** Messages naming no node (no trigger, a cycle, a bad workflow field). */
  general: string[];
}

const mark = (marks: Map<string, NodeMark>, key: string) => {
  let m = marks.get(key);
  if (!m) marks.set(key, (m = { problems: [] }));
  return m;
};

/** The node a message names by label; the longest matching label wins ("Mail" vs "Mail 2"). */
function nodeNamed(nodes: DraftNode[], message: string): DraftNode | undefined {
  return nodes.filter((n) => message.startsWith(`Node "${n.label}"`)).sort((a, b) => b.label.length - a.label.length)[0];
}

function sortMessages(nodes: DraftNode[], messages: string[], marks: Map<string, NodeMark>, general: string[]): void {
  for (const m of messages) {
    const n = nodeNamed(nodes, m);
    if (n) mark(marks, n.key).problems.push(m.slice(`Node "${n.label}"`.length).replace(/^:?\s*/, ''));
    else general.push(m);
  }
}

export function validationOverlay(nodes: DraftNode[], errors: string[], title = 'Validation'): Overlay {
  const marks = new Map<string, NodeMark>();
  const general: string[] = [];
  sortMessages(nodes, errors, marks, general);
  return { kind: 'validation', title, marks, general };
}

/** A refused save's errors map (spec 2, Errors: 422 with `{field: [message]}`; nodes by index in the body). */
export function saveErrorsOverlay(nodes: DraftNode[], errors: Record<string, string[]>): Overlay {
  const marks = new Map<string, NodeMark>();
  const general: string[] = [];
  for (const [field, messages] of Object.entries(errors)) {
    const at = /^nodes\.(\d+)(?:\.(.+))?$/.exec(field);
    const node = at ? nodes[Number(at[1])] : undefined;
    for (const m of messages) {
      if (node) mark(marks, node.key).problems.push(at![2] ? `${at![2]}: ${m}` : m);
      else general.push(`${field}: ${m}`);
    }
  }
  return { kind: 'validation', title: 'The workflow was not saved', marks, general };
}

export function simulationOverlay(nodes: DraftNode[], result: SimulationResult): Overlay {
  const marks = new Map<string, NodeMark>();
  const general: string[] = [];
  const byLabel = new Map(nodes.map((n) => [n.label, n]));
  for (const s of result.steps) {
    const n = byLabel.get(s.label);
    if (!n) continue;
    Object.assign(mark(marks, n.key), { status: s.mode, mode: s.mode, reason: s.reason, input: s.input, output: s.output });
  }
  for (const label of result.unreached) {
    const n = byLabel.get(label);
    if (n) Object.assign(mark(marks, n.key), { status: 'unreached', reason: 'the simulated run never reaches this node' });
  }
  sortMessages(nodes, [...result.errors, ...result.warnings], marks, general);
  const title = `Simulation: ${result.ok ? 'could run' : 'could not run'} · ${result.executed} executed, ${result.stubbed} stubbed`;
  return { kind: 'simulation', title, marks, general };
}

/** An execution's path: each node's last attempt (logs come in run order). */
export function executionOverlay(execution: { id: string; status: string; error_message: string | null; logs: ExecutionLog[] }): Overlay {
  const marks = new Map<string, NodeMark>();
  for (const l of execution.logs) Object.assign(mark(marks, l.node_id), { status: l.status, input: l.input_data, output: l.output_data, error: l.error_message });
  return { kind: 'execution', title: `Execution ${execution.status}`, marks, general: execution.error_message ? [execution.error_message] : [] };
}
