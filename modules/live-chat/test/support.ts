/**
 * Shared by the live chat tests: a test host running the module, members acting as agents, the public
 * widget API as a browser on some page would call it, and socket.io clients (agents with their token,
 * visitors with their grant) that record what they receive.
 */
import net from 'node:net';
import path from 'node:path';
import { connectError as connectRefusal, createTestHost, socketClient as connectClient, type SocketClient, type TestHost } from '../../../sdk/testing';

export { closeSockets, type SocketClient as Client } from '../../../sdk/testing';

export const LIVE_CHAT_DIR = path.resolve(__dirname, '..');
export const AGENT_ROLE = 'chat-agent';

/** The modules the bot and workflow handlers use, installed next to live chat when a test asks. */
export const HANDLER_MODULES = ['ai', 'workflows-code', 'workflows'].map((dir) => path.resolve(LIVE_CHAT_DIR, '..', dir));

/** smtp: mail goes to the project's local SMTP stand-in (sdk/testing smtp-sink), read with host.waitForMail. */
export async function startHost(env: Record<string, string> = {}, withModules: string[] = [], opts: { smtp?: boolean } = {}): Promise<TestHost> {
  const host = await createTestHost({ modulePath: LIVE_CHAT_DIR, env, withModules, smtp: opts.smtp });
  const role = await host.request('POST', '/roles', { name: AGENT_ROLE, description: 'Answers live chats.', permissions: ['live_chat.view', 'live_chat.reply'] });
  if (role.status !== 201) throw new Error(`role: ${JSON.stringify(role.body)}`);
  return host;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // text answers (script.js) stay text
  }
  return { status: res.status, headers: res.headers, body };
}

/** A real HTTP request to /api/v1 with a member's token. */
export async function requestAs(host: TestHost, token: string, method: string, p: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${host.url}/api/v1${p}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': host.tenantId },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return reply(res);
}

/** A call to the public widget API, as a page on `origin` would make it (no token, no tenant). */
export async function widgetCall(host: TestHost, token: string, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${host.url}/api/widget/${token}${p}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return reply(res);
}

export async function createWidget(host: TestHost, fields: Record<string, unknown> = {}): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await host.request('POST', '/live-chat/widgets', { name: 'Shop chat', ...fields });
  if (res.status !== 201) throw new Error(`widget: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface Agent {
  id: number;
  userId: number;
  token: string;
}

let members = 0;
/** A member with the agent role, made an agent (max chats as given) and, unless told otherwise, online. */
export async function addAgent(host: TestHost, opts: { max?: number; online?: boolean; name?: string } = {}): Promise<Agent> {
  const n = ++members;
  const name = opts.name ?? `Agent ${n}`;
  const member = await host.addMember({ email: `agent${n}.${Date.now()}@shop.example`, role: AGENT_ROLE, name });
  const created = await host.request('POST', '/live-chat/agents', { user_id: member.userId, name, ...(opts.max ? { max_concurrent_chats: opts.max } : {}) });
  if (created.status !== 201) throw new Error(`agent: ${created.status} ${JSON.stringify(created.body)}`);
  const agent = { id: created.body.id as number, userId: member.userId, token: member.token };
  if (opts.online !== false) await setStatus(host, agent, 'online');
  return agent;
}

export async function setStatus(host: TestHost, agent: Agent, status: string): Promise<Reply> {
  const res = await requestAs(host, agent.token, 'PUT', '/live-chat/agents/me/status', { status });
  if (res.status !== 200) throw new Error(`status: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** A visitor with a session on the widget, started from a page on origin. */
export async function visitor(host: TestHost, token: string, who: { name?: string; email?: string } = {}, origin?: string) {
  const headers: Record<string, string> = origin ? { origin } : {};
  const session = await widgetCall(host, token, 'POST', '/session', { name: who.name ?? 'Vera Visitor', email: who.email ?? 'vera@example.com', current_page: 'https://shop.example/cart' }, headers);
  if (session.status !== 200) throw new Error(`session: ${session.status} ${JSON.stringify(session.body)}`);
  const sessionId = session.body.session_id as string;
  return {
    sessionId,
    start: (message: string) => widgetCall(host, token, 'POST', '/conversations', { session_id: sessionId, message }, headers),
    write: (id: number, content: string) => widgetCall(host, token, 'POST', `/conversations/${id}/messages`, { session_id: sessionId, content }, headers),
    read: (id: number) => widgetCall(host, token, 'GET', `/conversations/${id}/messages?session_id=${sessionId}`, undefined, headers),
  };
}

/** A socket.io client of the host with any handshake auth: a member's `{token, tenant}` or a visitor's `{grant, tenant}`. */
export const socketClient = (host: TestHost, auth: Record<string, unknown>): Promise<SocketClient> => connectClient(host.url, auth);

/** A refused connection's error message, or undefined when it connected. */
export const connectError = (host: TestHost, auth: Record<string, unknown>): Promise<string | undefined> => connectRefusal(host.url, auth);

export const tenantChannel = (host: TestHost) => `private-tenant.${host.tenantId}.live-chat`;
/** A 1×1 PNG in base64 (README, Attachments). */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on now (for a platform whose APP_URL must name its port before it starts). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
