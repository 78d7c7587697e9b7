/**
 * Who answers a conversation (spec 2, Widget.handler_type: agent, ai_bot, workflow). A widget's
 * handler is copied onto each conversation when it starts, so a conversation keeps its handler when
 * the widget changes and can be escalated on its own (bot → human: handler_type becomes `agent`).
 * Each handler decides what a new conversation and each visitor message do:
 *
 * - `agent`: assignment by workload (assignment.ts); a visitor message pushes to the assigned agent.
 * - `ai_bot` and `workflow` are the extension points for the AI module's support agent and the
 *   workflows module's flows, which are not installed next to this version: until their
 *   implementations are added here (calling their operations, answering as sender `bot`, collecting
 *   answers into the conversation's metadata), such conversations are escalated to a human at once,
 *   with a system message, so no visitor waits on a bot that is not there.
 */
import type { HandlerContext } from '../../../sdk';
import type { ConversationRow, HandlerType, MessageRow } from './records';

export interface ConversationHandler {
  /** A conversation started: whether it goes to the human queue now. */
  onStart(ctx: HandlerContext, c: ConversationRow): Promise<'queue' | 'handled' | 'escalate'>;
  /** A visitor wrote in a conversation this handler runs. */
  onVisitorMessage(ctx: HandlerContext, c: ConversationRow, m: MessageRow): Promise<'handled' | 'escalate'>;
}

/** A handler whose module is not there yet: hand the conversation to a human. */
const toHuman: ConversationHandler = {
  onStart: async () => 'escalate',
  onVisitorMessage: async () => 'escalate',
};

export function handlerFor(type: HandlerType, agent: ConversationHandler): ConversationHandler {
  return type === 'agent' ? agent : toHuman;
}
