/**
 * Automatic assignment (spec 2, Endpoints: automatic assignment rule; Agent concurrency). Among
 * online agents with current_chats_count < max_concurrent_chats the lowest workload wins (ties: the
 * longest idle, i.e. the oldest last_active_at, then the lowest id); with none the conversation stays
 * pending, and pending conversations are assigned in arrival order (id) whenever one starts, an agent
 * comes online or a slot frees.
 *
 * Every drain of the queue runs in one transaction that first updates the single assignment_lock
 * row: PostgreSQL holds that row lock until commit, so drains take turns (host.db has no SELECT … FOR
 * UPDATE; an UPDATE is the lock) and each one reads the queue and the agents as the previous drain
 * left them. A slot is still taken with a compare-and-set on the agent's counter, because manual
 * assignment and freed slots change counters outside the drain; the table's CHECK constraint
 * (migrations/001) refuses a counter over the maximum regardless.
 */
import type { DbTransaction, HandlerContext } from '../../../sdk';
import { agentAtCapacity, chatErrors } from './errors';
import { retrying } from './db';
import { HOLDS_SLOT, nowIso, type AgentRow, type ConversationRow, type TeamMemberRow } from './records';

type LockRow = { id: number; locked_at: string | null };

const BATCH = 100;
const lastActive = (a: AgentRow) => (a.last_active_at ? Date.parse(a.last_active_at) : 0);

/** The best online agent with a free slot that may take the conversation (`allowed`: its team's members), or undefined. */
const best = (agents: AgentRow[], allowed: (a: AgentRow) => boolean = () => true) =>
  agents
    .filter((a) => a.status === 'online' && a.current_chats_count < a.max_concurrent_chats && allowed(a))
    .sort((a, b) => a.current_chats_count - b.current_chats_count || lastActive(a) - lastActive(b) || a.id - b.id)[0];

/** Who may take a conversation: anyone, or only the members of its team (README, Teams). */
async function eligibility(tx: DbTransaction, pending: ConversationRow[]) {
  const teamIds = [...new Set(pending.map((c) => c.team_id).filter((t): t is number => t !== null))];
  const members = teamIds.length ? await tx.find<TeamMemberRow>('TeamMember', { where: { team_id: { $in: teamIds } }, limit: 1000 }) : [];
  const pairs = new Set(members.map((m) => `${m.team_id}:${m.agent_id}`));
  return (c: ConversationRow) => (c.team_id === null ? undefined : (a: AgentRow) => pairs.has(`${c.team_id}:${a.id}`));
}

/** The agent's row after taking one more chat: busy at its maximum (spec 2: busy, at maximum chats). */
const taking = (a: AgentRow) => ({
  current_chats_count: a.current_chats_count + 1,
  total_chats_count: a.total_chats_count + 1,
  status: a.current_chats_count + 1 >= a.max_concurrent_chats && a.status === 'online' ? ('busy' as const) : a.status,
});

/** Takes a slot of `a` as read; false when its counter moved meanwhile. */
const takeSlot = async (db: DbTransaction, a: AgentRow) => (await db.update<AgentRow>('Agent', taking(a), { where: { id: a.id, current_chats_count: a.current_chats_count } })) > 0;

/**
 * Assigns pending agent-handled conversations, oldest first, while agents have free slots. Resolves
 * to the conversations assigned here, with their agent. A team's conversation goes only to its
 * team's agents and waits, without holding up the conversations behind it, while none has room; a
 * conversation of no team finding nobody ends the drain, since no agent at all has room then.
 */
export async function drainQueue(ctx: HandlerContext): Promise<{ conversation: ConversationRow; agent: AgentRow }[]> {
  const assigned: { conversation: ConversationRow; agent: AgentRow }[] = [];
  // Nobody to give a conversation to: skip the turn. Safe without the lock, because whatever frees a
  // slot or brings an agent online drains after it committed, and sees what is queued by then.
  if (!best(await ctx.host.db.find<AgentRow>('Agent', { where: { status: 'online' }, limit: 1000 }))) return assigned;
  // Past the conversations a round left waiting for their team, so the next round reads new ones.
  let after = 0;
  for (;;) {
    const round = await ctx.host.db.transaction(async (tx) => {
      await tx.update<LockRow>('AssignmentLock', { locked_at: nowIso(ctx) }, { where: { id: 1 } });
      const pending = await tx.find<ConversationRow>('Conversation', { where: { status: 'pending', agent_id: null, handler_type: 'agent', id: { $gt: after } }, order: [['id', 'ASC']], limit: BATCH });
      if (!pending.length) return { done: [], full: false, last: after };
      let agents = await tx.find<AgentRow>('Agent', { where: { status: 'online' }, limit: 1000 });
      const allowedFor = await eligibility(tx, pending);
      const done: { conversation: ConversationRow; agent: AgentRow }[] = [];
      for (const c of pending) {
        const allowed = allowedFor(c);
        let agent = best(agents, allowed);
        // A counter another writer moved (a manual assign, a freed slot): read the agents again.
        while (agent && !(await takeSlot(tx, agent))) {
          agents = await tx.find<AgentRow>('Agent', { where: { status: 'online' }, limit: 1000 });
          agent = best(agents, allowed);
        }
        if (!agent && c.team_id === null) return { done, full: false, last: c.id };
        if (!agent) continue;
        const moved = await tx.update<ConversationRow>('Conversation', { agent_id: agent.id, status: 'active', updated_at: nowIso(ctx) }, { where: { id: c.id, status: 'pending', agent_id: null } });
        const taken = { ...agent, ...taking(agent) };
        if (!moved) {
          // Closed meanwhile: give the slot back (this transaction holds the agent's row now).
          await tx.update<AgentRow>('Agent', { current_chats_count: agent.current_chats_count, total_chats_count: agent.total_chats_count, status: agent.status }, { where: { id: agent.id } });
          continue;
        }
        agents = agents.map((a) => (a.id === agent.id ? taken : a));
        done.push({ conversation: { ...c, agent_id: agent.id, status: 'active' }, agent: taken });
      }
      return { done, full: pending.length === BATCH, last: pending[pending.length - 1].id };
    });
    assigned.push(...round.done);
    if (!round.full) return assigned;
    after = round.last;
  }
}

/** Thrown inside a transaction to roll the agent's slot back when the conversation changed meanwhile. */
class Changed extends Error {}

/** Assigns a pending or held conversation to one named agent (manual assign and transfer), within its maximum. */
export async function assignTo(ctx: HandlerContext, conversation: ConversationRow, agentId: number): Promise<void> {
  try {
    await retrying(`Agent ${agentId}`, async () => {
      const a = await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: agentId } });
      if (!a) return true; // deleted meanwhile: nothing to take
      if (a.current_chats_count >= a.max_concurrent_chats) throw agentAtCapacity(a.id, a.max_concurrent_chats);
      return ctx.host.db.transaction(async (tx) => {
        if (!(await takeSlot(tx, a))) return undefined;
        const moved = await tx.update<ConversationRow>(
          'Conversation',
          // An agent given a bot or workflow conversation takes it over: the handler stops (README, Handlers).
          {
            agent_id: a.id,
            status: conversation.status === 'waiting' ? 'waiting' : 'active',
            ...(conversation.handler_type === 'agent' ? {} : { handler_type: 'agent' as const, handler_id: null }),
            updated_at: nowIso(ctx),
          },
          { where: { id: conversation.id, status: conversation.status, agent_id: conversation.agent_id } },
        );
        if (!moved) throw new Changed();
        return true;
      });
    });
  } catch (err) {
    if (err instanceof Changed) {
      throw chatErrors.busy(`Conversation ${conversation.id} changed meanwhile; read it again.`);
    }
    throw err;
  }
}

/**
 * Puts a held conversation back in the queue (pending, no agent), freeing its agent's slot: its agent
 * left, or it was routed to a team its agent is not in. False when it changed meanwhile.
 */
export async function requeue(ctx: HandlerContext, c: ConversationRow): Promise<boolean> {
  if (c.agent_id === null || !HOLDS_SLOT.includes(c.status)) return false;
  const moved = await ctx.host.db.update<ConversationRow>('Conversation', { agent_id: null, status: 'pending', updated_at: nowIso(ctx) }, { where: { id: c.id, agent_id: c.agent_id, status: c.status } });
  if (moved) await releaseSlot(ctx, c.agent_id);
  return moved > 0;
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
