/**
 * live_chat (spec 2, Live chat): widgets embedded on a tenant's sites, their visitors' conversations,
 * agents assigned by workload, realtime on the tenant's `private-tenant.{tenantId}.live-chat` and on
 * each `chat.conversation.{id}`, pushes to agents. Everything the module offers is declared here;
 * `mandi module build` writes module.json from it. README.md holds the decisions the spec leaves open.
 */
import { defineModule } from '../../../sdk';
import { data } from './models';
import { membershipEnded } from './agent-removal';
import { agentOperations } from './operations/agents';
import { attachmentOperations } from './operations/attachments';
import { cannedResponseOperations } from './operations/canned-responses';
import { labelOperations } from './operations/labels';
import { teamOperations } from './operations/teams';
import { conversationOperations } from './operations/conversations';
import { handlerOperations } from './operations/handlers';
import { publicOperations } from './operations/public';
import { reportOperations } from './operations/reports';
import { widgetOperations } from './operations/widgets';

export default defineModule({
  name: 'live_chat',
  version: '1.2.0',
  description: 'Live chat: an embeddable website widget, conversations with visitors, automatic assignment to agents by workload, realtime and push updates.',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  public_prefix: 'widget',
  permissions: [
    { name: 'live_chat.view', description: 'See conversations, widgets, agents and the dashboard, and follow the live chat channels.' },
    { name: 'live_chat.reply', description: 'Answer conversations as an agent: write, add internal notes, assign, transfer, route to a team, label, resolve, close, reopen, set priority and your own status and canned responses.' },
    { name: 'live_chat.manage', description: "Create and change widgets, agents, teams, labels and the tenant's canned responses." },
    { name: 'live_chat.reports', description: 'Read the live chat reports: first response time, resolution time and CSAT per period, agent and team.' },
  ],
  realtime: {
    channels: [
      { pattern: 'private-tenant.{tenant_id}.live-chat', description: 'Every conversation of the tenant: new messages and conversation changes, for agents.', join: { permission: 'live_chat.view' } },
      { pattern: 'chat.conversation.{id}', description: 'One conversation: its visitor (by grant) and the tenant\'s agents.', join: { permission: 'live_chat.view', visitor: true } },
    ],
  },
  operations: {
    ...conversationOperations,
    ...agentOperations,
    ...widgetOperations,
    ...publicOperations,
    ...handlerOperations,
    // Beyond spec 2 (README: Teams, Canned responses, Labels).
    ...teamOperations,
    ...cannedResponseOperations,
    ...labelOperations,
    ...reportOperations,
    ...attachmentOperations,
  },
  // The ai_bot handler asks the ai module's agent; the workflow handler checks and starts workflows (README, Handlers).
  // The platform's events for a membership that ended: the member stops being an agent (README, Agents).
  // conversation_started lets other modules react to a visitor's first message through the bus
  // (the ai module's out-of-hours answer answers with live_chat.auto_answer; README, Events for modules).
  events: { publishes: ['live_chat.conversation_started'], subscribes: { 'member.suspended': membershipEnded, 'member.removed': membershipEnded } },
  consumes: ['ai.agent_reply', 'ai.list_roles', 'workflow_engine.get_workflow', 'workflow_engine.start'],
  jobs: { bot_reply: { operation: 'live_chat.bot_reply', attempts: 2, timeout_seconds: 60 } },
  mobile: {
    screens: [
      { id: 'live_chat.conversations', title: 'Live chat', icon: 'message-circle', layout: 'scroll', route: '/live-chat/conversations', version: 1 },
      { id: 'live_chat.agents', title: 'Chat agents', icon: 'users', layout: 'scroll', route: '/live-chat/agents', version: 1 },
    ],
    screenProviders: { 'live_chat.conversations': { file: 'screens/live_chat.conversations.json' }, 'live_chat.agents': { file: 'screens/live_chat.agents.json' } },
  },
  data,
  // The bot_reply job waits for the ai module, which may try two vendors (25 s each at most).
  limits: { memory_mb: 128, timeout_ms: 60_000 },
});
