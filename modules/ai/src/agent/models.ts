/** The agent's tables (schema "ai"): customised and custom roles, the default role, conversations. */
import type { Model } from '../../../../sdk';

export const agentModels: Record<string, Model> = {
  /** A role as stored: a shipped role once customised, or a custom role (spec 2, Agent role). */
  AgentRole: {
    table: 'agent_roles',
    columns: {
      id: { type: 'string', length: 64, primaryKey: true },
      name: { type: 'string', length: 100, nullable: false },
      description: { type: 'text', nullable: false, default: '' },
      system_prompt: { type: 'text', nullable: false },
      allowed_tools: { type: 'json', nullable: false, default: [] },
      temperature: { type: 'decimal', precision: 4, scale: 2, nullable: false },
      max_tokens: { type: 'integer', nullable: false },
      provider_id: { type: 'string', length: 64, nullable: true },
      updated_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
  },
  /** One row, key "default_role": the role a chat without `role` uses. */
  AgentSetting: {
    table: 'agent_settings',
    columns: {
      key: { type: 'string', length: 64, primaryKey: true },
      value: { type: 'string', length: 200, nullable: false },
    },
  },
  /** A user's conversation with the agent: its last messages (bounded, ./memory.ts). */
  AgentConversation: {
    table: 'agent_conversations',
    columns: {
      id: { type: 'uuid', primaryKey: true, default: { $fn: 'uuid' } },
      user_id: { type: 'integer', nullable: false },
      role_id: { type: 'string', length: 64, nullable: false },
      messages: { type: 'json', nullable: false, default: [] },
      created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
      updated_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
    indexes: [{ fields: ['user_id', 'updated_at'] }],
  },
  /** A module's conversation with the agent for someone who is not a user (ai.agent_reply: a chat widget's visitor). */
  AgentModuleConversation: {
    table: 'agent_module_conversations',
    columns: {
      id: { type: 'uuid', primaryKey: true, default: { $fn: 'uuid' } },
      module: { type: 'string', length: 64, nullable: false },
      role_id: { type: 'string', length: 64, nullable: false },
      messages: { type: 'json', nullable: false, default: [] },
      created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
      updated_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
    indexes: [{ fields: ['module', 'updated_at'] }],
  },
};
