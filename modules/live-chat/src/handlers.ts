/**
 * Who answers a conversation (spec 2, Widget.handler_type: agent, ai_bot, workflow). A widget's
 * handler is copied onto each conversation when it starts, so a conversation keeps its handler when
 * the widget changes and can be escalated on its own (bot → human: handler_type becomes `agent`).
 * Each handler decides what a new conversation and each visitor message do:
 *
 * - `agent`: assignment by workload (assignment.ts); a visitor message pushes to the assigned agent.
 * - `ai_bot` (bot.ts): the ai module's agent answers as sender `bot`, and hands over to a person
 *   when it cannot help or the visitor asks for one.
 * - `workflow` (workflow-handler.ts): a workflow of the workflows module asks questions, collects the
 *   answers into the conversation's metadata and routes the conversation to an agent.
 *
 * Bot and workflow conversations are neither queued nor pushed to agents until they are handed over.
 * A widget is saved with a bot or workflow handler only when what it needs is there (checkHandler).
 */
import type { HandlerContext } from '../../../sdk';
import { botHandler, checkBotHandler } from './bot';
import type { ConversationRow, HandlerType, MessageRow, WidgetRow } from './records';
import { checkWorkflowHandler, workflowHandler } from './workflow-handler';

export interface ConversationHandler {
  /** A conversation started: whether it goes to the human queue now. */
  onStart(ctx: HandlerContext, c: ConversationRow): Promise<'queue' | 'handled' | 'escalate'>;
  /** A visitor wrote in a conversation this handler runs. */
  onVisitorMessage(ctx: HandlerContext, c: ConversationRow, m: MessageRow): Promise<'handled' | 'escalate'>;
}

export function handlerFor(type: HandlerType, agent: ConversationHandler): ConversationHandler {
  return type === 'ai_bot' ? botHandler : type === 'workflow' ? workflowHandler : agent;
}

/** A widget's handler settings as they will be saved: 422 when its handler cannot run (README, Handlers). */
export async function checkHandler(ctx: HandlerContext, w: Pick<WidgetRow, 'handler_type' | 'workflow_id'>): Promise<void> {
  if (w.handler_type === 'ai_bot') await checkBotHandler(ctx);
  if (w.handler_type === 'workflow') await checkWorkflowHandler(ctx, w.workflow_id);
}
