/**
 * An agent leaving (spec 2, Live chat: Agent): removed by an admin, or their membership of the tenant
 * ended (the platform's `member.suspended` / `member.removed` events). Offline first, so no drain
 * hands them a chat meanwhile; their open conversations go back to the queue (pending, no agent),
 * the record goes, and the queue is drained, so an online agent with room takes them.
 */
import type { HandlerContext } from '../../../sdk';
import { requeue } from './assignment';
import { assignPending } from './conversations';
import { HOLDS_SLOT, type AgentRow, type ConversationRow } from './records';

/** Removes the agent; the number of conversations put back in the queue. */
export async function removeAgent(ctx: HandlerContext, agentId: number): Promise<number> {
  await ctx.host.db.update<AgentRow>('Agent', { status: 'offline' }, { where: { id: agentId } });
  const open = await ctx.host.db.find<ConversationRow>('Conversation', { where: { agent_id: agentId, status: { $in: [...HOLDS_SLOT] } }, limit: 1000 });
  let requeued = 0;
  for (const c of open) if (await requeue(ctx, c)) requeued++;
  // Out of every team, and their own canned responses go with them (README, Teams; Canned responses).
  await ctx.host.db.destroy('TeamMember', { where: { agent_id: agentId } });
  await ctx.host.db.destroy('CannedResponse', { where: { agent_id: agentId } });
  await ctx.host.db.destroy('Agent', { where: { id: agentId } });
  await assignPending(ctx);
  return requeued;
}

/** The platform's events for a membership that ended: the member is no longer an agent (at least once: a repeat finds no agent). */
export const membershipEnded = async (payload: { user_id: number }, ctx: HandlerContext): Promise<void> => {
  const agent = await ctx.host.db.findOne<AgentRow>('Agent', { where: { user_id: payload.user_id } });
  if (agent) await removeAgent(ctx, agent.id);
};
