/**
 * Which operations may be AI tools (spec 2, Tools; Tool discovery and permission enforcement): an
 * operation a module provides is offered to agents unless it says `ai_tool: false`, **except that a
 * module running agents offers none**. Such a module (one consuming `tools.list` or `tools.call`,
 * such as `ai`) provides its agents' own configuration: providers and their keys, roles and their
 * allowed tools, runs. Offered as tools, a prompt (a customer's message, a fetched page) could have
 * the agent reconfigure the AI, swap its keys or widen its roles, with the permissions of whoever is
 * chatting. So the platform never lists or runs them as tools (core/services/contributions/ai-tools.ts), and a
 * manifest that marks one `ai_tool: true` is refused here, so the author learns it at build.
 */
import { matchesConsumes } from './compatibility';
import type { ManifestIssue } from './issues';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Whether a module runs agents: it consumes the platform's tool operations. */
export function runsAgents(consumes: readonly unknown[] | undefined): boolean {
  const names = (consumes ?? []).filter((c): c is string => typeof c === 'string');
  return matchesConsumes(names, 'tools.list') || matchesConsumes(names, 'tools.call');
}

export function agentToolIssues(doc: unknown): ManifestIssue[] {
  const api = isObj(doc) ? doc.api : undefined;
  if (!isObj(api) || !runsAgents(list(api.consumes))) return [];
  return list(api.provides).flatMap((op, i) =>
    isObj(op) && op.ai_tool === true
      ? [{ pointer: `/api/provides/${i}/ai_tool`, message: `"${String(op.name)}" cannot be an AI tool: this module runs agents (it consumes tools.list or tools.call), and an agent must never reach its own configuration through a prompt; remove ai_tool` }]
      : [],
  );
}
