/**
 * Run chains (spec 2 is silent; README, Run chains). Every finished run emits
 * `workflow.execution.completed` / `.failed`, and a node's operation may emit events of its module,
 * so an event-triggered workflow can start itself, directly or through others, without end. Each run
 * therefore carries its chain: the workflows of the runs that led to it, oldest first (empty for a
 * run a person, a webhook, a schedule or a module started). It travels with what a run causes: the
 * bus context of its nodes' calls (`workflowChain`, the chain with the run's own workflow), the
 * events emitted under it (EventEnvelope.chain) and the sub-workflow runs it starts.
 *
 * The rule: a workflow may not appear in its own chain (it would be starting itself), and a chain
 * holds at most `maxDepth` runs (WORKFLOW_MAX_CHAIN_DEPTH), the run itself included. A run that
 * breaks it is refused before its first node: failed with WORKFLOW_CHAIN_LOOP or WORKFLOW_CHAIN_TOO_DEEP (errors.ts) at the start of
 * its error_message (a node whose call is refused, a sub-workflow's, fails with that text), and no lifecycle event (a refused run's event would start the next refusal).
 */
import type { MandiError } from '../../kernel/errors';
import { workflowErrors } from './errors';

/** Why a run of `workflowId` with `chain` before it may not start; undefined when it may. */
export function chainRefusal(workflowId: string, chain: readonly string[], maxDepth: number): MandiError | undefined {
  if (chain.includes(workflowId)) return workflowErrors.chainLoop(workflowId, chain);
  if (chain.length + 1 > maxDepth) return workflowErrors.chainTooDeep(workflowId, chain, maxDepth);
  return undefined;
}

/** A chain as read from untrusted storage (an event envelope, a row): workflow ids only. */
export function chainOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
