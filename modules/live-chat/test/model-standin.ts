/**
 * A stand-in language model for the bot handler's tests: a small real HTTP server on 127.0.0.1
 * speaking the chat-completions protocol (`POST …/chat/completions`, JSON answers, usage), which
 * the ai module reaches as a `vendora_compatible` provider. Each answer is `answer(request body)`;
 * every request is recorded. (Module tests import only sdk and sdk/testing, so the ai module's own
 * stand-ins are not reused here.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestHost } from '../../../sdk/testing';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the vendor's JSON as received
export type Completion = { messages: Array<{ role: string; content: string | null }>; tools?: any[] };

export interface ModelStandIn {
  origin: string;
  requests: Completion[];
  answer: (body: Completion) => string;
  close(): Promise<void>;
}

export async function modelStandIn(): Promise<ModelStandIn> {
  const state: ModelStandIn = { origin: '', requests: [], answer: () => 'ok', close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Completion;
      state.requests.push(body);
      const content = state.answer(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${state.requests.length}`, object: 'chat.completion', model: 'stand-in-model',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  };
  return state;
}

/** Makes the stand-in the tenant's default language model, as a tenant admin would (ai module endpoints). */
export async function useModel(host: TestHost, model: ModelStandIn): Promise<void> {
  const steps: Array<[string, string, unknown, number]> = [
    ['PATCH', `/admin/tenants/${host.tenantId}/private-networks`, { allow_private_networks: true }, 200],
    ['POST', '/ai/providers', { id: 'standin', name: 'Stand-in', type: 'vendora_compatible', base_url: `${model.origin}/v1`, models: ['stand-in-model'] }, 201],
    ['PUT', '/ai/providers/standin/credentials', { api_key: 'sk-standin-0123456789', model: 'stand-in-model' }, 200],
    ['PUT', '/ai/config', { default_provider: 'standin' }, 200],
  ];
  for (const [method, p, body, status] of steps) {
    const res = await host.request(method, p, body);
    if (res.status !== status) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
