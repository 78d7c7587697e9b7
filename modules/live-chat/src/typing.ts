/**
 * Typing indicators (an addition beyond spec 2, README Typing): `chat.typing` {conversation_id,
 * sender_type visitor | agent, sender_name, typing, _tenant_id, _timestamp} on the conversation's
 * channel and the tenant's, so the visitor's widget sees the agent typing and agents see the visitor.
 * Limited per conversation and side, however many addresses or tabs send: a start is broadcast at
 * most once every TYPING_INTERVAL_MS (more is 429 RATE_LIMITED), a stop only after a start (a repeated
 * stop says nothing), so one side makes at most two broadcasts a second. The compare-and-set on the
 * conversation's `<side>_typing_at` keeps that under concurrent calls.
 */
import type { HandlerContext } from '../../../sdk';
import { conversationChannel, send, tenantChannel } from './broadcast';
import { chatErrors, invalidState } from './errors';
import { OPEN } from './conversations';
import { nowIso, type ConversationRow } from './records';

export const TYPING_INTERVAL_MS = 1000;

type Side = 'visitor' | 'agent';

/** Broadcasts one side's typing state; false when there was nothing to say (a stop without a start). */
export async function typing(ctx: HandlerContext, c: ConversationRow, side: Side, senderName: string | null, on: boolean): Promise<boolean> {
  if (!OPEN.includes(c.status)) throw invalidState(`Conversation ${c.id} is ${c.status}; nobody types in it.`, c.status);
  const flag = `${side}_typing` as const;
  const at = `${side}_typing_at` as const;
  const now = ctx.host.now();
  const moved = on
    ? await ctx.host.db.update<ConversationRow>('Conversation', { [flag]: true, [at]: nowIso(ctx) }, {
        where: { id: c.id, $or: [{ [at]: null }, { [at]: { $lte: new Date(now - TYPING_INTERVAL_MS).toISOString() } }] },
      })
    : await ctx.host.db.update<ConversationRow>('Conversation', { [flag]: false }, { where: { id: c.id, [flag]: true } });
  if (!moved && on) throw chatErrors.rateLimited(`At most one typing start every ${TYPING_INTERVAL_MS} ms.`, 1);
  if (!moved) return false;
  const body = { conversation_id: c.id, sender_type: side, sender_name: senderName, typing: on, _tenant_id: ctx.tenantId, _timestamp: nowIso(ctx) };
  await send(ctx, [tenantChannel(ctx.tenantId), conversationChannel(c.id)], 'chat.typing', body);
  return true;
}
