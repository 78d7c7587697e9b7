/**
 * The live chat nodes of the workflow editor (workflow.nodes; README, Handlers): what a workflow
 * named by a widget uses to talk with the visitor. Each config is its operation's input;
 * `conversation_id` comes from the trigger data: write `"conversation_id": "{{conversation_id}}"`.
 */
import type { WorkflowNode } from '../../../sdk';

const LOOK = { icon: 'message-circle', color: '#0d9488' };
const CONVERSATION = { conversation_id: { type: 'integer', minimum: 1, description: 'the conversation: {{conversation_id}} from the trigger data' } };
const INPUT = [{ name: 'input', type: 'object', required: false }];

export const workflowNodes: WorkflowNode[] = [
  {
    type: 'live_chat:ask-question', name: 'Ask the visitor', category: 'action', ...LOOK, operation: 'live_chat.workflow_ask',
    description: 'Passes on branch "answered" when the conversation metadata holds metadata_key; otherwise asks the question once and ends the branch ("waiting") until the visitor answers.',
    configSchema: { type: 'object', properties: { ...CONVERSATION, question: { type: 'string', minLength: 1, maxLength: 5000 }, metadata_key: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$', maxLength: 64 } }, required: ['conversation_id', 'question', 'metadata_key'] },
    inputs: INPUT, outputs: [{ name: 'answered', type: 'object' }, { name: 'waiting', type: 'object' }],
  },
  {
    type: 'live_chat:send-message', name: 'Send a chat message', category: 'action', ...LOOK, operation: 'live_chat.workflow_send',
    description: 'Writes to the visitor as the bot.',
    configSchema: { type: 'object', properties: { ...CONVERSATION, content: { type: 'string', minLength: 1, maxLength: 5000 } }, required: ['conversation_id', 'content'] },
    inputs: INPUT, outputs: [{ name: 'output', type: 'object' }],
  },
  {
    type: 'live_chat:route-to-agent', name: 'Route to an agent', category: 'action', ...LOOK, operation: 'live_chat.workflow_route',
    description:
      "Hands the conversation to the human agents (assignment by workload), to one agent by agent_id when they are online with a free slot (else the queue), or to a team's queue by team_id; the workflow stops driving it.",
    configSchema: {
      type: 'object',
      properties: {
        ...CONVERSATION,
        agent_id: { type: 'integer', minimum: 1, description: 'optional: a live chat agent of this tenant (GET /live-chat/agents); offline, away or full → the queue' },
        team_id: { type: 'integer', minimum: 1, description: "optional, instead of agent_id: a live chat team of this tenant (GET /live-chat/teams); only the team's agents take it" },
      },
      required: ['conversation_id'],
    },
    inputs: INPUT, outputs: [{ name: 'output', type: 'object' }],
  },
];
