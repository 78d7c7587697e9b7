/**
 * Shared by the assist tests (order extraction, suggested replies, product descriptions) and their
 * hostile twins: a platform with ai, orders, reseller-catalog and live chat, the scripted stand-in
 * language model (agent-support.ts) as the tenant's default provider, catalog products and a live
 * chat conversation made through the modules' own routes.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing';
import { widgetCall } from '../../live-chat/test/support';
import { AI_DIR, llmStandIn, ORDERS_DIR, useStandIn, type LlmStandIn, type SeenRequest } from './agent-support';

export const CATALOG_DIR = path.resolve(__dirname, '../../reseller-catalog');
export const LIVE_CHAT_DIR = path.resolve(__dirname, '../../live-chat');

export async function startAssistHost(): Promise<{ host: TestHost; llm: LlmStandIn; close(): Promise<void> }> {
  const llm = await llmStandIn();
  const host = await createTestHost({ modulePath: AI_DIR, withModules: [ORDERS_DIR, CATALOG_DIR, LIVE_CHAT_DIR] });
  await useStandIn(host, llm);
  return { host, llm, close: async () => (await host.close(), await llm.close()) };
}

/** A master product of this (level 0) tenant: in its catalog at base_cost × 1.15 (the suggested selling price). */
export async function product(host: TestHost, sku: string, name: string, baseCost: string, over: Record<string, unknown> = {}): Promise<{ id: string; sku: string }> {
  const res = await host.request('POST', '/reseller-catalog/master-products', { sku, name, base_cost: baseCost, ...over });
  if (res.status !== 201) throw new Error(`POST master-products: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product;
}

/** A live chat conversation a visitor started with `messages` (the first opens it). */
export async function conversation(host: TestHost, messages: string[]): Promise<number> {
  const widget = await host.request('POST', '/live-chat/widgets', { name: 'Shop chat' });
  if (widget.status !== 201) throw new Error(`widget: ${widget.status} ${JSON.stringify(widget.body)}`);
  const token = widget.body.token as string;
  const session = await widgetCall(host, token, 'POST', '/session', { name: 'Vera', email: 'vera@example.com' });
  const started = await widgetCall(host, token, 'POST', '/conversations', { session_id: session.body.session_id, message: messages[0] });
  if (started.status >= 300) throw new Error(`conversation: ${started.status} ${JSON.stringify(started.body)}`);
  const id = started.body.conversation.id as number;
  for (const m of messages.slice(1)) await widgetCall(host, token, 'POST', `/conversations/${id}/messages`, { session_id: session.body.session_id, content: m });
  return id;
}

/** The chat completions the stand-in answered since `from`. */
export const completions = (llm: LlmStandIn, from = 0): SeenRequest[] => llm.requests.slice(from).filter((r) => r.url.endsWith('/chat/completions'));
