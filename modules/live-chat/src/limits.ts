/**
 * The module's own rate limits on the public widget (spec 2, Limits: widget request rates not shown;
 * decided here, README). The host limits each route per token and client address; these hold however
 * many addresses a visitor or a flood uses:
 * - per widget: at most WIDGET_CONVERSATIONS_PER_MINUTE new conversations a minute, all visitors together;
 * - per visitor: at most VISITOR_OPEN_CONVERSATIONS open conversations at once;
 * - per conversation: at most MESSAGES_PER_MINUTE visitor messages a minute.
 */
import type { HandlerContext } from '../../../sdk';
import { chatErrors } from './errors';
import { OPEN } from './conversations';
import type { VisitorRow, WidgetRow } from './records';

export const WIDGET_CONVERSATIONS_PER_MINUTE = 600;
export const VISITOR_OPEN_CONVERSATIONS = 3;
export const MESSAGES_PER_MINUTE = 30;

const tooMany = (message: string) => chatErrors.rateLimited(message, 60);
const minuteAgo = (ctx: HandlerContext) => new Date(ctx.host.now() - 60_000).toISOString();

export async function checkConversationRate(ctx: HandlerContext, widget: WidgetRow, visitor: VisitorRow): Promise<void> {
  const open = await ctx.host.db.count('Conversation', { where: { visitor_id: visitor.id, status: { $in: [...OPEN] } } });
  if (open >= VISITOR_OPEN_CONVERSATIONS) throw tooMany(`You have ${open} open conversations; write in one of them.`);
  const recent = await ctx.host.db.count('Conversation', { where: { widget_id: widget.id, created_at: { $gte: minuteAgo(ctx) } } });
  if (recent >= WIDGET_CONVERSATIONS_PER_MINUTE) throw tooMany('This widget is receiving too many new conversations; try again in a minute.');
}

/** Visitor messages in the conversation over the last minute, for checkMessageRate. */
export const recentVisitorMessages = (ctx: HandlerContext, conversationId: number) =>
  ctx.host.db.count('Message', { where: { conversation_id: conversationId, sender_type: 'visitor', created_at: { $gte: minuteAgo(ctx) } } });

export function checkMessageRate(recent: number): void {
  if (recent >= MESSAGES_PER_MINUTE) throw tooMany(`At most ${MESSAGES_PER_MINUTE} messages a minute; wait a moment.`);
}
