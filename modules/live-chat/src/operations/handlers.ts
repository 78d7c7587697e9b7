/**
 * The operations behind the bot and workflow handlers (README, Handlers): the `bot_reply` job, and
 * the live_chat workflow nodes (declared here with `node`), which the workflow engine calls as the
 * workflow's owner with ctx.idempotencyKey (a repeated step finds the message it wrote).
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { botReply } from '../bot';
import { botSays, handToAgent, handToHuman, OPEN } from '../conversations';
import { conversationById } from '../db';
import type { AgentRow, ConversationRow, TeamRow } from '../records';
import { validation } from '../errors';
import { businessHoursProblem, isOpen } from '../business-hours';
import { BusinessHours, Content, Id } from '../schemas';

const REPLY = 'live_chat.reply';
const INTERNAL = { ai_tool: false, graphql_expose: false } as const;
/**
 * The workflow nodes (workflow.nodes; README, Handlers) a workflow named by a widget uses to talk
 * with the visitor, each declared on the operation it runs: its config is the operation's input,
 * `conversation_id` from the trigger data (`"conversation_id": "{{conversation_id}}"`).
 */
const NODE_LOOK = { icon: 'message-circle', color: '#0d9488', inputs: [{ name: 'input', type: 'object', required: false }] };
const OUTPUT = [{ name: 'output', type: 'object' }];
const CONVERSATION = Type.Integer({ minimum: 1, maximum: 2147483647, description: 'the conversation: {{conversation_id}} from the trigger data' });
export const METADATA_KEY = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' });

/** Whether a workflow may still talk in the conversation: open, and not handed to a person. */
const driven = (c: ConversationRow) => c.handler_type === 'workflow' && OPEN.includes(c.status);

/** Writes once per `mark` (message metadata): a step made again after a crash writes nothing new. */
async function saysOnce(ctx: HandlerContext, c: ConversationRow, content: string, mark: Record<string, unknown>): Promise<boolean> {
  if ((await ctx.host.db.count('Message', { where: { conversation_id: c.id, metadata: { $contains: mark } } })) > 0) return false;
  await botSays(ctx, c, content, mark);
  return true;
}

export const handlerOperations = {
  business_hours_status: operation({
    description: "Whether a business hours object (spec 2, Live chat records) is valid, and open at this moment: for modules keeping hours of their own (the ai module's out-of-hours answer).",
    ...INTERNAL,
    input: Type.Object({ business_hours: BusinessHours }, { additionalProperties: false }),
    output: Type.Object({ open: Type.Boolean(), problem: Type.Union([Type.String(), Type.Null()]) }),
    handler: ({ business_hours }, ctx) => {
      const problem = businessHoursProblem(business_hours);
      return { open: problem === null && isOpen(business_hours, ctx.host.now()), problem };
    },
  }),
  auto_answer: operation({
    description: "Another module's automatic bot answer in an open conversation (e.g. the ai module's out-of-hours first answer): written once per key.",
    permission: REPLY,
    ...INTERNAL,
    input: Type.Object({ conversation_id: Id, content: Content, key: METADATA_KEY }, { additionalProperties: false }),
    output: Type.Object({ sent: Type.Boolean() }),
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.conversation_id);
      if (!OPEN.includes(c.status)) return { sent: false };
      return { sent: await saysOnce(ctx, c, input.content, { auto_answer: `${ctx.caller}:${input.key}` }) };
    },
  }),
  bot_reply: operation({
    description: "The bot_reply job: the AI bot's answer to one visitor message, or the hand-over to a person.",
    ...INTERNAL,
    input: Type.Object({ job: Type.String(), data: Type.Object({ conversation_id: Id, message_id: Id }), attempt: Type.Integer(), id: Type.String() }),
    output: Type.Object({ outcome: Type.StringEnum(['answered', 'escalated', 'skipped']) }),
    handler: async ({ data }, ctx) => ({ outcome: await botReply(ctx, data.conversation_id, data.message_id) }),
  }),
  workflow_ask: operation({
    description: "Node live_chat:ask-question: passes with the answer when the metadata key holds one; otherwise asks the visitor (once) and waits for the answer.",
    permission: REPLY,
    ...INTERNAL,
    input: Type.Object({ conversation_id: CONVERSATION, question: Content, metadata_key: METADATA_KEY }, { additionalProperties: false }),
    output: Type.Object({ branch: Type.StringEnum(['answered', 'waiting']), answered: Type.Boolean(), value: Type.Unknown() }),
    node: {
      slug: 'ask-question', name: 'Ask the visitor', category: 'action',
      description: 'Passes on branch "answered" when the conversation metadata holds metadata_key; otherwise asks the question once and ends the branch ("waiting") until the visitor answers.',
      ...NODE_LOOK, outputs: [{ name: 'answered', type: 'object' }, { name: 'waiting', type: 'object' }],
    },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.conversation_id);
      const metadata = c.metadata ?? {};
      if (Object.prototype.hasOwnProperty.call(metadata, input.metadata_key)) return { branch: 'answered' as const, answered: true, value: metadata[input.metadata_key] };
      if (driven(c)) {
        const state = c.handler_state ?? {};
        if (state.pending_key !== input.metadata_key) await ctx.host.db.update<ConversationRow>('Conversation', { handler_state: { ...state, pending_key: input.metadata_key } }, { where: { id: c.id } });
        await saysOnce(ctx, c, input.question, { workflow_question: input.metadata_key });
      }
      return { branch: 'waiting' as const, answered: false, value: null };
    },
  }),
  workflow_send: operation({
    description: 'Node live_chat:send-message: writes to the visitor as the bot.',
    permission: REPLY,
    ...INTERNAL,
    input: Type.Object({ conversation_id: CONVERSATION, content: Content }, { additionalProperties: false }),
    output: Type.Object({ sent: Type.Boolean() }),
    node: { slug: 'send-message', name: 'Send a chat message', category: 'action', description: 'Writes to the visitor as the bot.', ...NODE_LOOK, outputs: OUTPUT },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.conversation_id);
      if (!driven(c)) return { sent: false };
      return { sent: await saysOnce(ctx, c, input.content, { workflow_step: ctx.idempotencyKey ?? `send:${input.content}` }) };
    },
  }),
  workflow_route: operation({
    description:
      "Node live_chat:route-to-agent: hands the conversation to the agent queue (assignment by workload), to the agent agent_id names when they are online with a free slot (otherwise the queue), or to the team team_id names (the team's queue: only its agents take it).",
    permission: REPLY,
    ...INTERNAL,
    input: Type.Object(
      {
        conversation_id: CONVERSATION,
        agent_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'optional: a live chat agent of this tenant (GET /live-chat/agents); offline, away or full → the queue' })),
        team_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: "optional, instead of agent_id: a live chat team of this tenant (GET /live-chat/teams); only the team's agents take it" })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ routed: Type.Boolean(), agent_id: Type.Union([Id, Type.Null()], { description: 'the agent it went to directly; null: queued (or not routed)' }) }),
    node: {
      slug: 'route-to-agent', name: 'Route to an agent', category: 'action',
      description:
        "Hands the conversation to the human agents (assignment by workload), to one agent by agent_id when they are online with a free slot (else the queue), or to a team's queue by team_id; the workflow stops driving it.",
      ...NODE_LOOK, outputs: OUTPUT,
    },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.conversation_id);
      // The named agent must be one of this tenant's, whether or not the conversation is still the workflow's.
      const agent = input.agent_id === undefined ? undefined : await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: input.agent_id } });
      if (input.agent_id !== undefined && !agent) throw validation('agent_id', `Agent ${input.agent_id} is not a live chat agent of this tenant.`);
      if (agent && input.team_id !== undefined) throw validation('team_id', 'Name an agent or a team, not both.');
      const team = input.team_id === undefined ? undefined : await ctx.host.db.findOne<TeamRow>('Team', { where: { id: input.team_id } });
      if (input.team_id !== undefined && !team) throw validation('team_id', `Team ${input.team_id} is not a live chat team of this tenant.`);
      if (!driven(c)) return { routed: false, agent_id: null };
      if (agent) return handToAgent(ctx, c, agent);
      if (team) {
        // The team's queue (README, Teams): set before the hand-over, so assignment offers it only to the team's agents.
        await ctx.host.db.update<ConversationRow>('Conversation', { team_id: team.id }, { where: { id: c.id } });
        return { routed: await handToHuman(ctx, { ...c, team_id: team.id }), agent_id: null };
      }
      return { routed: await handToHuman(ctx, c), agent_id: null };
    },
  }),
};
