/**
 * The ai_bot handler (spec 2, Live chat: "visitor messages go to the configured AI service, the
 * answer is returned to the visitor, and the conversation escalates to a human agent when the AI
 * cannot handle it"). Decided where the spec is silent (README, Handlers):
 * - The AI service is the ai module's agent with the tenant's `support` role, reached over the bus
 *   (`ai.agent_reply`: no tools, since a visitor is no user to act as), with memory per conversation
 *   (the ai module's conversation id, kept in handler_state).
 * - The answer comes from a module job (`bot_reply`, one per visitor message), so the visitor's POST
 *   returns at once and the answer arrives as a `bot` message over the realtime channels.
 * - Hand-over to a person: the visitor asks for one (HUMAN_REQUEST, checked before the model is
 *   asked); the model answers with the HANDOFF marker (the instructions below ask it to when it
 *   cannot help); the loop stopped at a cap; or the ai module failed or is not there. Text beside the
 *   marker is still sent. The conversation then becomes an `agent` one and the bot stops.
 */
import { jobs, type HandlerContext } from '../../../sdk';
// A cycle (conversations picks this handler, this handler writes messages), used only at call time.
import { botSays, handToHuman, OPEN } from './conversations';
import { conversationById } from './db';
import { errorCode, validation } from './errors';
import type { ConversationHandler } from './handlers';
import type { ConversationRow, MessageRow } from './records';

export const BOT_ROLE = 'support';
export const HANDOFF = '[[HANDOFF]]';
export const BOT_INSTRUCTIONS =
  'You are answering a visitor in the chat on our website. Reply in plain text, briefly and politely. ' +
  `If you cannot help with the request (you do not know, cannot do it, or it needs a person), or the visitor asks for a person, reply with ${HANDOFF} and nothing else: a member of the team then takes over the chat.`;

/** A visitor asking for a person, in the words visitors use (README, Handlers). */
const HUMAN_REQUEST = /\b(human|real person|a person|live agent|an agent|representative|operator|(talk|speak) to (someone|somebody|a person))\b/i;
export const asksForHuman = (text: string) => HUMAN_REQUEST.test(text);

export type BotJobs = { bot_reply: { conversation_id: number; message_id: number } };

type AgentReply = { message: string; conversation_id: string; stop_reason: string };

export const botHandler: ConversationHandler = {
  onStart: async () => 'handled',
  onVisitorMessage: async (ctx, c, m) => {
    if (asksForHuman(m.content)) return 'escalate';
    try {
      await jobs<BotJobs>(ctx.host).enqueue('bot_reply', { conversation_id: c.id, message_id: m.id }, { key: `bot_reply:${m.id}` });
    } catch (err) {
      ctx.host.log.warn('the AI bot cannot take the message; handing the conversation to a person', { conversation_id: c.id, code: errorCode(err) });
      return 'escalate';
    }
    return 'handled';
  },
};

/** The `bot_reply` job: the agent's answer to one visitor message, or the hand-over. */
export async function botReply(ctx: HandlerContext, conversationId: number, messageId: number): Promise<'answered' | 'escalated' | 'skipped'> {
  const c = await conversationById(ctx, conversationId);
  // Handed over meanwhile (a person asked for, a manual assignment) or ended: the bot stays quiet.
  if (c.handler_type !== 'ai_bot' || c.agent_id !== null || !OPEN.includes(c.status)) return 'skipped';
  const m = await ctx.host.db.findOne<MessageRow>('Message', { where: { id: messageId, conversation_id: c.id } });
  // A job runs at least once: a repeat finds the answer it gave.
  if (!m || (await ctx.host.db.count('Message', { where: { conversation_id: c.id, metadata: { $contains: { reply_to: m.id } } } })) > 0) return 'skipped';
  let reply: AgentReply;
  try {
    const memory = c.handler_state?.ai_conversation_id;
    reply = await ctx.host.call<AgentReply>('ai.agent_reply', { message: m.content, role: BOT_ROLE, instructions: BOT_INSTRUCTIONS, ...(memory ? { conversation_id: memory } : {}) });
  } catch (err) {
    ctx.host.log.warn('the AI bot could not answer; handing the conversation to a person', { conversation_id: c.id, code: errorCode(err) });
    return (await handToHuman(ctx, c)) ? 'escalated' : 'skipped';
  }
  await ctx.host.db.update<ConversationRow>('Conversation', { handler_state: { ...(c.handler_state ?? {}), ai_conversation_id: reply.conversation_id } }, { where: { id: c.id } });
  const answered = reply.stop_reason === 'answered';
  const text = answered ? reply.message.split(HANDOFF).join('').trim() : '';
  if (text) await botSays(ctx, c, text, { reply_to: m.id });
  if (answered && !reply.message.includes(HANDOFF)) return 'answered';
  return (await handToHuman(ctx, c)) ? 'escalated' : 'answered';
}

/** Widget save: the bot needs the ai module in the tenant. */
export async function checkBotHandler(ctx: HandlerContext): Promise<void> {
  try {
    await ctx.host.call('ai.list_roles', {});
  } catch (err) {
    if (errorCode(err) !== 'OPERATION_NOT_FOUND') throw err;
    throw validation('handler_type', 'The ai_bot handler needs the ai module: install it in this tenant first (and configure a language-model provider).');
  }
}
