/**
 * Shared by the realtime suites (spec 2, Events): a platform running the chat_rt fixture module
 * (test/realtime/fixtures/chat-rt), installed in two tenants, with members holding and lacking its
 * permission, and calls into the module as the core would (the module then calls the host's
 * realtime operations from its sandbox).
 */
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { needsBuild } from '../../sdk/build/needs-build';
import { tenantIn, type ShopTenant } from '../rings/support';
import { addMember, type TestPlatform } from '../support/test-platform';

export const CHAT_RT = path.join(__dirname, 'fixtures/chat-rt');

export async function buildChatRt(): Promise<void> {
  if (await needsBuild(CHAT_RT, 'dist/index.js')) await buildModule(CHAT_RT);
}

export interface RealtimeWorld {
  owner: Awaited<ReturnType<TestPlatform['install']>>;
  /** A second tenant running chat_rt too: same channel names, other rooms. */
  globex: ShopTenant;
  /** Member of acme without chat_rt.view. */
  bob: { token: string; userId: number };
  /** Member of acme holding chat_rt.view. */
  carol: { token: string; userId: number };
}

export async function realtimeWorld(tp: TestPlatform, extra: { alias?: string } = {}): Promise<RealtimeWorld> {
  const owner = await tp.install(extra.alias ?? 'acme');
  const install = async (token: string, tenant: string) => {
    const res = await tp.api('/modules/chat_rt/install', { token, tenant, body: {} });
    if (res.status !== 201) throw new Error(`install chat_rt in ${tenant}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await install(owner.token, owner.alias);
  const globex = await tenantIn(tp, owner, 'globex', 'stable');
  await install(globex.token, globex.alias);
  await tp.api('/roles', { token: owner.token, tenant: owner.alias, body: { name: 'rt-agent', permissions: ['chat_rt.view'] } });
  const bob = await addMember(tp, owner.token, owner.alias, { email: `bob@${owner.alias}.example` });
  const carol = await addMember(tp, owner.token, owner.alias, { email: `carol@${owner.alias}.example`, role: 'rt-agent' });
  return { owner, globex, bob, carol };
}

/** Calls one of chat_rt's operations in the tenant, as the core would. */
export function chatRt<T = unknown>(tp: TestPlatform, tenantId: string, method: 'say' | 'say_many' | 'grant', input: unknown): Promise<T> {
  return tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, `chat_rt.${method}`, input, { tenantId, user: null }) as Promise<T>;
}

export const grantFor = (tp: TestPlatform, tenantId: string, channels: string[], visitorId = 'v-1', ttlSeconds?: number) =>
  chatRt<{ grant: string; expires_at: string }>(tp, tenantId, 'grant', { visitor_id: visitorId, channels, ...(ttlSeconds ? { ttl_seconds: ttlSeconds } : {}) });
