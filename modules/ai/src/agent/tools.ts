/**
 * The tools an agent role offers (spec 2, Tool discovery and permission enforcement): the platform's
 * `tools.list` gives the tools of the installed modules that the requesting user may use (rule 2,
 * the permission inferred from each name, and the operation's own permission); the role's
 * allowed_tools patterns narrow them (rule 1). Calls go through `tools.call`, which runs them as the
 * user (caller edge `ai`) and checks rule 2 again, so the agent never does more than role ∩ user
 * (rule 3), whatever the model asks for.
 */
import type { HandlerContext } from '../../../../sdk';
import { aiErrors } from '../errors';
import type { ToolSpec } from '../llm';

export interface AgentTool {
  name: string;
  module: string;
  description: string;
  input: Record<string, unknown>;
}

/** Rule 1: `a.b` exactly, `a.*` every tool whose name starts with `a.`, `*` all. */
export function matchesPattern(pattern: string, name: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}

/**
 * The tools the user may use (rule 2) among those the role's patterns name: the platform narrows the
 * list by `only`, so the other modules' schemas never cross into the sandbox; allowedBy still applies
 * rule 1 here, whatever the list holds.
 */
export async function userTools(ctx: HandlerContext, patterns: readonly string[]): Promise<AgentTool[]> {
  if (patterns.length === 0) return [];
  return (await ctx.host.call<{ tools: AgentTool[] }>('tools.list', { only: patterns })).tools;
}

/** Rule 1: the role's allowed_tools patterns. */
export const allowedBy = (tools: AgentTool[], patterns: readonly string[]) => tools.filter((t) => patterns.some((p) => matchesPattern(p, t.name)));

/** What the model is told about a tool: its input schema as parameters (an object schema). */
export const toolSpec = (t: AgentTool): ToolSpec => ({
  name: t.name,
  description: t.description,
  parameters: t.input.type === 'object' ? t.input : { type: 'object', properties: {} },
});

/** Runs a tool as the user; a refusal or failure becomes the error the model (and the answer) sees. */
export async function runTool(ctx: HandlerContext, name: string, input: unknown): Promise<{ output: unknown } | { error: { code: string; message: string } }> {
  try {
    return { output: await ctx.host.call('tools.call', { name, input }) };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    const failed = aiErrors.toolFailed(typeof e.message === 'string' ? e.message : String(err));
    return { error: { code: typeof e.code === 'string' ? e.code : failed.code, message: failed.message } };
  }
}
