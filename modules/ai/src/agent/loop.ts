/**
 * The agent's tool-calling loop (spec 2, Agent; README "Agent"): the model answers or asks for tools;
 * each tool runs through the bus as the user (./tools.ts) and its result goes back to the model as a
 * `role: tool` message carrying the call's id; then the model is asked again, until it answers
 * without tools, MAX_ROUNDS model calls have been made, or the chat has used MAX_CHAT_TOKENS.
 * Streamed, the same loop reports text deltas and tool calls and results as they happen.
 */
import Decimal from 'decimal.js';
import type { HandlerContext } from '../../../../sdk';
import { chat, chatStream, prefetch, recordUsage, type ChatMessage, type ChatResult, type ChatStreamEvent, type UsageRecord } from '../llm';
import { loadConversation, saveConversation, type Owner } from './memory';
import { roleFor, type Role } from './roles';
import { allowedBy, runTool, toolSpec, userTools } from './tools';
import { aiErrors, codeAndMessage } from '../errors';

/** Model calls per chat message: a tool chain longer than this is a loop. */
export const MAX_ROUNDS = 6;
/** Tokens (in and out, all rounds) one chat message may use. */
export const MAX_CHAT_TOKENS = 32_000;
/**
 * Tools run per chat message (all rounds): tools act in the world (an SMS, a WhatsApp message, an
 * order change), so a prompt that has the model ask for hundreds at once gets this many run and the
 * rest refused (TOOL_CALL_LIMIT), without running.
 */
export const MAX_TOOL_CALLS = 16;
/** A tool result is cut to this many characters before it goes to the model. */
const MAX_TOOL_RESULT_CHARS = 16_000;

export interface ChatInput {
  message: string;
  role?: string;
  conversation_id?: string;
}

/**
 * Whom the agent answers. A user (POST /ai/agent/chat): the role's tools as that user, the user's
 * memory. A module's visitor (`ai.agent_reply`): no tools, since there is no user to act as and
 * tools.call acts only as one; the module's memory; the module's instructions after the role's prompt.
 */
export interface Asker {
  owner: Owner;
  tools: boolean;
  instructions?: string;
}

export const userAsker = (ctx: HandlerContext): Asker => ({ owner: { user_id: ctx.user!.id }, tools: true });

export interface ToolCallRecord {
  name: string;
  input: unknown;
  output?: unknown;
  error?: { code: string; message: string };
}

export interface ChatAnswer {
  message: string;
  tool_calls: ToolCallRecord[];
  usage: { input_tokens: number; output_tokens: number; total_tokens: number; cost: string };
  provider: string;
  model: string;
  conversation_id: string;
  role: string;
  /** Why the loop ended: the model answered (`answered`), or a cap stopped it. */
  stop_reason: 'answered' | 'max_rounds' | 'max_tokens';
}

/** What a streamed chat reports besides the final answer. */
export type AgentEvent = ChatStreamEvent | { type: 'tool_result'; id: string; name: string; output?: unknown; error?: ToolCallRecord['error'] };

const systemPrompt = (role: Role, tenantName: string, instructions: string | undefined) =>
  role.system_prompt.split('{{tenant_name}}').join(tenantName) + (instructions ? `\n\n${instructions}` : '');

/**
 * The tenant's name for {{tenant_name}}, kept a minute in this tenant's sandbox context (module
 * globals are per tenant): a renamed tenant shows in prompts within a minute, and a chat does not
 * pay two central-database reads for it.
 */
const TENANT_NAME_TTL_MS = 60_000;
const tenantNames = new Map<string, { name: string; at: number }>();
async function tenantName(ctx: HandlerContext): Promise<string> {
  const cached = tenantNames.get(ctx.tenantId);
  if (cached && ctx.host.now() - cached.at < TENANT_NAME_TTL_MS) return cached.name;
  const { name } = await ctx.host.call<{ name: string }>('platform.get_tenant', {});
  tenantNames.set(ctx.tenantId, { name, at: ctx.host.now() });
  return name;
}

export async function runChat(ctx: HandlerContext, input: ChatInput, onEvent: ((e: AgentEvent) => Promise<void>) | null, asker: Asker = userAsker(ctx)): Promise<ChatAnswer> {
  // Independent reads at once, the first completion's settings, provider and key among them. The
  // tool list waits for the role (its patterns narrow what crosses into the sandbox), which is
  // mostly answered from ../config-cache.ts without a round trip.
  prefetch(ctx);
  const rolePromise = roleFor(ctx, input.role);
  const [role, conversation, userToolList, tenant] = await Promise.all([
    rolePromise,
    loadConversation(ctx, asker.owner, input.conversation_id),
    asker.tools ? rolePromise.then((r) => userTools(ctx, r.allowed_tools)) : [],
    tenantName(ctx),
  ]);
  const tools = allowedBy(userToolList, role.allowed_tools);
  const offered = new Set(tools.map((t) => t.name));
  const history: ChatMessage[] = [...conversation.messages, { role: 'user', content: input.message }];
  const calls: ToolCallRecord[] = [];
  let ran = 0;
  const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0, cost: new Decimal(0) };
  let last: ChatResult | undefined;
  let stop: ChatAnswer['stop_reason'] = 'max_rounds';
  // Usage records of the rounds, written in one statement with the conversation write.
  const usageRecords: UsageRecord[] = [];
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const request = {
        feature: 'agent',
        messages: [{ role: 'system' as const, content: systemPrompt(role, tenant, asker.instructions) }, ...history],
        ...(tools.length > 0 ? { tools: tools.map(toolSpec) } : {}),
        temperature: role.temperature,
        max_tokens: role.max_tokens,
        provider_id: role.provider_id,
      };
      last = onEvent ? await chatStream(ctx, request, onEvent, usageRecords) : await chat(ctx, request, usageRecords);
      usage.input_tokens += last.usage.input_tokens;
      usage.output_tokens += last.usage.output_tokens;
      usage.total_tokens += last.usage.total_tokens;
      usage.cost = usage.cost.plus(last.usage.cost || '0');
      const asked = last.message.tool_calls ?? [];
      history.push({ role: 'assistant', content: last.message.content, ...(asked.length > 0 ? { tool_calls: asked } : {}) });
      if (asked.length === 0) {
        stop = 'answered';
        break;
      }
      for (const call of asked) {
        // A tool the role does not offer is refused here; tools.call refuses what the user may not do.
        let result: Awaited<ReturnType<typeof runTool>>;
        if (!offered.has(call.name)) result = { error: codeAndMessage(aiErrors.toolNotAllowed(call.name, role.id)) };
        else if (ran >= MAX_TOOL_CALLS) result = { error: codeAndMessage(aiErrors.toolCallLimit(MAX_TOOL_CALLS, call.name)) };
        else {
          ran++;
          result = await runTool(ctx, call.name, call.arguments);
        }
        calls.push({ name: call.name, input: call.arguments, ...result });
        if (onEvent) await onEvent({ type: 'tool_result', id: call.id, name: call.name, ...result });
        history.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result).slice(0, MAX_TOOL_RESULT_CHARS) });
      }
      if (usage.total_tokens >= MAX_CHAT_TOKENS) {
        stop = 'max_tokens';
        break;
      }
    }
  } catch (err) {
    // The rounds that were answered were used, whatever failed after them.
    await recordUsage(ctx, usageRecords).catch(() => undefined);
    throw err;
  }
  const answer = stop === 'answered' ? (last!.message.content ?? '') : `I stopped before finishing: this request needed more than ${stop === 'max_rounds' ? `${MAX_ROUNDS} model calls` : `${MAX_CHAT_TOKENS} tokens`}.`;
  const [conversationId] = await Promise.all([saveConversation(ctx, asker.owner, conversation, role.id, history), recordUsage(ctx, usageRecords)]);
  return {
    message: answer,
    tool_calls: calls,
    usage: { ...usage, cost: usage.cost.toFixed() },
    provider: last!.provider,
    model: last!.model,
    conversation_id: conversationId,
    role: role.id,
    stop_reason: stop,
  };
}
