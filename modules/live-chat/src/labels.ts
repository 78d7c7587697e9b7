/** The labels on conversations (README, Labels): read for the conversations an answer shows, in one query each way. */
import type { HandlerContext } from '../../../sdk';
import type { ConversationLabelRow, LabelRow } from './records';

export type LabelBrief = Pick<LabelRow, 'id' | 'name' | 'color'>;

/** Each conversation's labels by name; every id given has an entry. */
export async function labelsOf(ctx: HandlerContext, conversationIds: number[]): Promise<Map<number, LabelBrief[]>> {
  const out = new Map<number, LabelBrief[]>(conversationIds.map((id) => [id, []]));
  if (!conversationIds.length) return out;
  const pairs = await ctx.host.db.find<ConversationLabelRow>('ConversationLabel', { where: { conversation_id: { $in: conversationIds } }, limit: 1000 });
  if (!pairs.length) return out;
  const labels = await ctx.host.db.find<LabelRow>('Label', { where: { id: { $in: [...new Set(pairs.map((p) => p.label_id))] } }, order: [['name', 'ASC']], limit: 1000 });
  for (const l of labels) for (const p of pairs) if (p.label_id === l.id) out.get(p.conversation_id)!.push({ id: l.id, name: l.name, color: l.color });
  return out;
}

/** The conversations carrying a label, for the list's filter: the newest 1,000 (a host.db `$in` list holds 1,000 at most; README, Labels). */
export async function labelledConversations(ctx: HandlerContext, labelId: number): Promise<number[]> {
  const pairs = await ctx.host.db.find<ConversationLabelRow>('ConversationLabel', { where: { label_id: labelId }, attributes: ['conversation_id'], order: [['conversation_id', 'DESC']], limit: 1000 });
  return pairs.map((p) => p.conversation_id);
}
