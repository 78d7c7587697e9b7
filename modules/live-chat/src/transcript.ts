/**
 * The transcript mailed to the visitor when a conversation is closed (an addition beyond spec 2,
 * README Transcript): only when they left an email, only what they saw (no internal notes), plain
 * text through the host's `mail.send` (a public core operation: one address, queued and retried by
 * the platform). A refused mail is logged; the close stands.
 */
import type { HandlerContext } from '../../../sdk';
import { visitorById, widgetById } from './db';
import type { ConversationRow, MessageRow } from './records';

/** mail.send takes at most 100,000 characters of text. */
const MAX_TEXT = 100_000;
const MAX_MESSAGES = 1000;

const who = (m: MessageRow) => m.sender_name ?? (m.sender_type === 'visitor' ? 'You' : m.sender_type === 'system' ? 'System' : 'Agent');

export function transcriptText(widgetName: string, messages: MessageRow[]): string {
  const lines = messages.map((m) => `[${m.created_at.replace('T', ' ').slice(0, 16)} UTC] ${who(m)}: ${m.content}`);
  const text = [`Your conversation with ${widgetName}:`, '', ...lines, ''].join('\n');
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 40)}\n… (the rest is not included)` : text;
}

export async function mailTranscript(ctx: HandlerContext, c: ConversationRow): Promise<void> {
  const visitor = await visitorById(ctx, c.visitor_id);
  if (!visitor?.email) return;
  const [widget, messages] = await Promise.all([
    widgetById(ctx, c.widget_id).catch(() => null),
    ctx.host.db.find<MessageRow>('Message', { where: { conversation_id: c.id, is_internal: false }, order: [['id', 'ASC']], limit: MAX_MESSAGES }),
  ]);
  const name = (widget?.name ?? 'us').replace(/[\r\n]+/g, ' ');
  await ctx.host
    .call('mail.send', { to: visitor.email, subject: `Your conversation with ${name}`.slice(0, 255), text: transcriptText(name, messages) })
    .catch((err: { code?: string; message?: string }) => ctx.host.log.warn('live chat transcript not mailed', { conversation_id: c.id, code: err?.code, message: err?.message }));
}
