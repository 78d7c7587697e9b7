/**
 * Agent roles (spec 2, Agent role): the shipped support, operations and analytics roles with the
 * spec's values, customisable but never deleted; custom roles; the default role (`support` until a
 * tenant admin chooses). A shipped role is served from its defaults until it is customised (then
 * from its row), so a new platform version's defaults reach tenants that never changed them.
 */
import type { HandlerContext } from '../../../../sdk';
import { configRead, forgetConfig } from '../config-cache';
import { aiErrors, invalid, notFound } from '../errors';

export interface Role {
  id: string;
  name: string;
  description: string;
  system_prompt: string;
  allowed_tools: string[];
  temperature: number;
  max_tokens: number;
  provider_id: string | null;
}

type RoleRow = Omit<Role, 'temperature'> & { temperature: string | number; updated_at?: string };

export const SHIPPED_ROLES: readonly Role[] = [
  {
    id: 'support',
    name: 'Customer Support',
    description: 'Answers questions about orders and customers.',
    system_prompt:
      'You are the customer support assistant of {{tenant_name}}. Answer questions about orders and customers using the tools you have; never invent order data. Keep order numbers, URLs and amounts exactly as the tools return them.',
    allowed_tools: ['orders.get', 'orders.getStats', 'customers.*'],
    temperature: 0.3,
    max_tokens: 1024,
    provider_id: null,
  },
  {
    id: 'operations',
    name: 'Operations Assistant',
    description: 'Helps run day-to-day order operations.',
    system_prompt:
      'You are the operations assistant of {{tenant_name}}. Help the team look up and manage orders with the tools you have. Say what you did, and never act beyond what the user asked.',
    allowed_tools: ['orders.*'],
    temperature: 0.1,
    max_tokens: 2048,
    provider_id: null,
  },
  {
    id: 'analytics',
    name: 'Analytics Assistant',
    description: 'Explains order statistics.',
    system_prompt: 'You are the analytics assistant of {{tenant_name}}. Answer questions about sales and order statistics with the tools you have, and show the figures you used.',
    allowed_tools: ['orders.getStats'],
    temperature: 0.2,
    max_tokens: 2048,
    provider_id: null,
  },
];

export const DEFAULT_ROLE = 'support';
const isShipped = (id: string) => SHIPPED_ROLES.some((r) => r.id === id);

const fromRow = (row: RoleRow): Role => ({
  id: row.id,
  name: row.name,
  description: row.description,
  system_prompt: row.system_prompt,
  allowed_tools: row.allowed_tools,
  temperature: Number(row.temperature),
  max_tokens: row.max_tokens,
  provider_id: row.provider_id,
});

export async function listRoles(ctx: HandlerContext): Promise<{ data: Role[]; default_role: string }> {
  const rows = (await ctx.host.db.find<RoleRow>('AgentRole', { order: [['id', 'ASC']], limit: 1000 })).map(fromRow);
  const stored = new Map(rows.map((r) => [r.id, r]));
  const shipped = SHIPPED_ROLES.map((r) => stored.get(r.id) ?? r);
  return { data: [...shipped, ...rows.filter((r) => !isShipped(r.id))], default_role: await defaultRoleId(ctx) };
}

export function defaultRoleId(ctx: HandlerContext): Promise<string> {
  return configRead(ctx, 'role:default', async () => {
    const row = await ctx.host.db.findOne<{ key: string; value: string }>('AgentSetting', { where: { key: 'default_role' } });
    return row?.value ?? DEFAULT_ROLE;
  });
}

/** The role a chat uses: the one named, else the tenant's default (kept a few seconds: ../config-cache.ts). */
export async function roleFor(ctx: HandlerContext, id: string | undefined): Promise<Role> {
  const roleId = id ?? (await defaultRoleId(ctx));
  const role = await configRead(ctx, `role:${roleId}`, async () => {
    const row = await ctx.host.db.findOne<RoleRow>('AgentRole', { where: { id: roleId } });
    return row ? fromRow(row) : (SHIPPED_ROLES.find((r) => r.id === roleId) ?? null);
  });
  if (!role) throw notFound('Agent role', roleId);
  return role;
}

export type RoleInput = Omit<Role, 'id' | 'provider_id' | 'description'> & { id: string; description?: string; provider_id?: string | null };

export async function putRole(ctx: HandlerContext, input: RoleInput): Promise<Role> {
  if (input.id === 'default') throw invalid('id', 'The role id "default" is reserved: PUT /ai/agent/roles/default sets the default role.');
  const role: Role = {
    id: input.id,
    name: input.name,
    description: input.description ?? '',
    system_prompt: input.system_prompt,
    allowed_tools: input.allowed_tools,
    temperature: input.temperature,
    max_tokens: input.max_tokens,
    provider_id: input.provider_id ?? null,
  };
  await ctx.host.db.upsert('AgentRole', { ...role, temperature: String(role.temperature), updated_at: new Date(ctx.host.now()).toISOString() });
  forgetConfig();
  return role;
}

export async function setDefaultRole(ctx: HandlerContext, roleId: string): Promise<{ default_role: string }> {
  await roleFor(ctx, roleId); // 404 for a role that does not exist
  await ctx.host.db.upsert('AgentSetting', { key: 'default_role', value: roleId });
  forgetConfig();
  return { default_role: roleId };
}

export async function deleteRole(ctx: HandlerContext, roleId: string): Promise<{ deleted: true; id: string }> {
  if (isShipped(roleId)) throw aiErrors.roleNotDeletable(roleId);
  const n = await ctx.host.db.destroy('AgentRole', { where: { id: roleId } });
  if (n === 0) throw notFound('Agent role', roleId);
  // A deleted default falls back to the shipped default rather than naming a role that is gone.
  await ctx.host.db.destroy('AgentSetting', { where: { key: 'default_role', value: roleId } });
  forgetConfig();
  return { deleted: true, id: roleId };
}
