/**
 * Automatic assignment (spec 2, Endpoints: automatic assignment rule; Agent concurrency). Among
 * online agents with current_chats_count < max_concurrent_chats the lowest workload wins (ties: the
 * longest idle, i.e. the oldest last_active_at, then the lowest id); with none the conversation stays
 * pending, and pending conversations are assigned in arrival order (id) whenever an agent comes
 * online or frees a slot. A slot is taken with a compare-and-set on the agent's counter in the same
 * transaction that moves the conversation from pending to active only if it is still pending and
 * unassigned, so concurrent starts never put an agent over its maximum (and the table's CHECK
 * constraint refuses it regardless: migrations/001).
 */
import type { HandlerContext } from '../../../sdk';
import { agentAtCapacity } from './errors';
import { retrying } from './db';
import { nowIso, type AgentRow, type ConversationRow } from './records';

/** Thrown inside a transaction to roll the agent's slot back when the conversation was taken meanwhile. */
class Taken extends Error {
  readonly code = 'LIVE_CHAT_TAKEN';
}

const lastActive = (a: AgentRow) => (a.last_active_at ? Date.parse(a.last_active_at) : 0);

/** Online agents with a free slot, best first. */
export async function availableAgents(ctx: HandlerContext): Promise<AgentRow[]> {
  const online = await ctx.host.db.find<AgentRow>('Agent', { where: { status: 'online' }, limit: 1000 });
  return online
    .filter((a) => a.current_chats_count < a.max_concurrent_chats)
    .sort((a, b) => a.current_chats_count - b.current_chats_count || lastActive(a) - lastActive(b) || a.id - b.id);
}

/** Agent row after taking one more chat: busy at its maximum (spec 2: busy, at maximum chats). */
const taking = (a: AgentRow) => ({
  current_chats_count: a.current_chats_count + 1,
  total_chats_count: a.total_chats_count + 1,
  status: a.current_chats_count + 1 >= a.max_concurrent_chats && a.status === 'online' ? 'busy' : a.status,
});

/**
 * Gives the pending conversation to agent `a` if both are still as read: one transaction, or nothing.
 * Resolves true when assigned, false when the agent's counter moved (read again), and throws Taken
 * when the conversation is no longer pending.
 */
async function claim(ctx: HandlerContext, a: AgentRow, conversationId: number, fromStatus: 'online' | 'any'): Promise<boolean> {
  return ctx.host.db.transaction(async (tx) => {
    const where: Record<string, unknown> = { id: a.id, current_chats_count: a.current_chats_count };
    if (fromStatus === 'online') where.status = 'online';
    const took = await tx.update<AgentRow>('Agent', taking(a), { where });
    if (!took) return false;
    const moved = await tx.update<ConversationRow>('Conversation', { agent_id: a.id, status: 'active', updated_at: nowIso(ctx) }, { where: { id: conversationId, status: 'pending', agent_id: null } });
    if (!moved) throw new Taken();
    return true;
  });
}

/** Assigns the pending conversation to the best available agent; null when none is available. */
export async function assignBest(ctx: HandlerContext, conversationId: number): Promise<AgentRow | null | 'taken'> {
  try {
    return await retrying(`Assignment of conversation ${conversationId}`, async () => {
      const candidates = await availableAgents(ctx);
      if (!candidates.length) return null;
      for (const a of candidates) if (await claim(ctx, a, conversationId, 'online')) return a;
      return undefined; // every candidate's counter moved: read again
    });
  } catch (err) {
    if (err instanceof Taken || (err as { code?: string })?.code === 'LIVE_CHAT_TAKEN') return 'taken';
    throw err;
  }
}

/**
 * Assigns pending agent-handled conversations, oldest first, while agents have free slots. Resolves
 * to the conversations assigned here, with their agent. Concurrent drains share the work: a
 * conversation another drain took is skipped.
 */
export async function drainQueue(ctx: HandlerContext, batch = 50): Promise<{ conversation: ConversationRow; agent: AgentRow }[]> {
  const assigned: { conversation: ConversationRow; agent: AgentRow }[] = [];
  for (;;) {
    const pending = await ctx.host.db.find<ConversationRow>('Conversation', { where: { status: 'pending', agent_id: null, handler_type: 'agent' }, order: [['id', 'ASC']], limit: batch });
    if (!pending.length) return assigned;
    for (const c of pending) {
      const agent = await assignBest(ctx, c.id);
      if (agent === null) return assigned;
      if (agent !== 'taken') assigned.push({ conversation: { ...c, agent_id: agent.id, status: 'active' }, agent });
    }
    if (pending.length < batch) return assigned;
  }
}

/** Assigns a pending or held conversation to one named agent (manual assign and transfer), within its maximum. */
export async function assignTo(ctx: HandlerContext, conversation: ConversationRow, agentId: number): Promise<void> {
  await retrying(`Agent ${agentId}`, async () => {
    const a = await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: agentId } });
    if (!a) return true; // the caller checked it exists; deleted meanwhile: nothing to take
    if (a.current_chats_count >= a.max_concurrent_chats) throw agentAtCapacity(a.id, a.max_concurrent_chats);
    return ctx.host.db.transaction(async (tx) => {
      const took = await tx.update<AgentRow>('Agent', taking(a), { where: { id: a.id, current_chats_count: a.current_chats_count } });
      if (!took) return undefined;
      const moved = await tx.update<ConversationRow>(
        'Conversation',
        { agent_id: a.id, status: conversation.status === 'waiting' ? 'waiting' : 'active', updated_at: nowIso(ctx) },
        { where: { id: conversation.id, status: conversation.status, agent_id: conversation.agent_id } },
      );
      if (!moved) throw new Taken();
      return true;
    });
  }).catch((err) => {
    if (err instanceof Taken) throw Object.assign(new Error(`Conversation ${conversation.id} changed meanwhile; read it again.`), { code: 'LIVE_CHAT_BUSY', details: { status: 409 } });
    throw err;
  });
}

/** Frees the slot a conversation held on its agent (resolve, close, transfer away, agent removed). */
export async function releaseSlot(ctx: HandlerContext, agentId: number): Promise<void> {
  await retrying(`Agent ${agentId}`, async () => {
    const a = await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: agentId } });
    if (!a || a.current_chats_count === 0) return true;
    const next = a.current_chats_count - 1;
    const changed = await ctx.host.db.update<AgentRow>(
      'Agent',
      { current_chats_count: next, status: a.status === 'busy' && next < a.max_concurrent_chats ? 'online' : a.status },
      { where: { id: a.id, current_chats_count: a.current_chats_count } },
    );
    return changed ? true : undefined;
  });
}
