/**
 * POST /workflow-nodes/can-connect (spec 2, Node registry). The spec gives the answer's shape, not
 * the rule; ours: a connection runs from one of the source's outputs into one of the target's inputs,
 * so the source needs an output, the target an input (a trigger takes none: it starts the workflow),
 * and some output and input must carry compatible types (equal, or either is `any`).
 */
import type { NodeEntry } from '../../../sdk/contracts/workflow-resources';

export interface ConnectAnswer {
  can_connect: boolean;
  /** Why not, when the answer is false. */
  reason?: string;
}

const compatible = (a: string, b: string) => a === 'any' || b === 'any' || a === b;

export function canConnect(source: NodeEntry, target: NodeEntry): ConnectAnswer {
  if (source.outputs.length === 0) return { can_connect: false, reason: `${source.identifier} has no outputs.` };
  if (target.inputs.length === 0) {
    const why = target.category === 'trigger' ? 'it is a trigger, which starts a workflow' : 'it has no inputs';
    return { can_connect: false, reason: `${target.identifier} takes no incoming connection: ${why}.` };
  }
  const fits = source.outputs.some((o) => target.inputs.some((i) => compatible(o.type, i.type)));
  if (!fits) {
    const outs = [...new Set(source.outputs.map((o) => o.type))].join(', ');
    const ins = [...new Set(target.inputs.map((i) => i.type))].join(', ');
    return { can_connect: false, reason: `${source.identifier} outputs ${outs}; ${target.identifier} takes ${ins}.` };
  }
  return { can_connect: true };
}
