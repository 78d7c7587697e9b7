/**
 * The workflow handler (spec 2, Live chat: "the visitor is guided through a predefined flow,
 * structured information is collected, and the conversation is routed to a department or agent").
 * Decided where the spec is silent (README, Handlers):
 * - The widget names `workflow_id`, an active workflow of the workflows module starting with
 *   `workflows:manual-trigger`; the conversation keeps it (handler_state.workflow_id).
 * - Every visitor message starts one run of it (`workflow_engine.start`, once per message), with
 *   `{conversation_id, widget_id, visitor_id, message, metadata}` as trigger data.
 * - live_chat's nodes (declared on their operations in operations/handlers.ts) drive the conversation: `live_chat:ask-question`
 *   passes (branch `answered`) when its metadata key holds an answer, and otherwise asks the question
 *   once as a `bot` message, records the key as pending and ends its branch (branch `waiting`); the
 *   visitor's next message is the pending key's answer, stored in the conversation's metadata before
 *   the next run starts. `live_chat:send-message` writes to the visitor; `live_chat:route-to-agent`
 *   hands the conversation to the agent queue.
 * - A run that cannot start (the workflow deleted, paused, or workflows uninstalled) hands the
 *   conversation to a person, so no visitor waits on a flow that will not come.
 */
import type { HandlerContext } from '../../../sdk';
import { errorCode, validation } from './errors';
import type { ConversationHandler } from './handlers';
import type { ConversationRow } from './records';

export const workflowHandler: ConversationHandler = {
  onStart: async () => 'handled',
  onVisitorMessage: async (ctx, c, m) => {
    const state = c.handler_state ?? {};
    if (!state.workflow_id) return 'escalate';
    let metadata = c.metadata ?? {};
    if (state.pending_key) {
      metadata = { ...metadata, [state.pending_key]: m.content };
      await ctx.host.db.update<ConversationRow>('Conversation', { metadata, handler_state: { ...state, pending_key: null } }, { where: { id: c.id } });
    }
    try {
      await ctx.host.call('workflow_engine.start', {
        workflow_id: state.workflow_id,
        key: `live_chat:message:${m.id}`,
        data: { conversation_id: c.id, widget_id: c.widget_id, visitor_id: c.visitor_id, message: m.content, metadata },
      });
    } catch (err) {
      ctx.host.log.warn('the conversation workflow cannot start; handing the conversation to a person', { conversation_id: c.id, code: errorCode(err) });
      return 'escalate';
    }
    return 'handled';
  },
};

/** Widget save: the workflow handler names a workflow that exists. */
export async function checkWorkflowHandler(ctx: HandlerContext, workflowId: string | null): Promise<void> {
  if (!workflowId) throw validation('workflow_id', 'The workflow handler needs workflow_id: the workflow that guides the visitor.');
  try {
    await ctx.host.call('workflow_engine.get_workflow', { id: workflowId });
  } catch (err) {
    if (errorCode(err) !== 'WORKFLOW_NOT_FOUND') throw err;
    throw validation('workflow_id', `Workflow ${workflowId} not found: name a workflow of this tenant.`);
  }
}
