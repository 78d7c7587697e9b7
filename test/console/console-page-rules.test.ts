/**
 * What the console performs for a module's console page (core/console/client/module-pages/page-rules.ts;
 * docs/decisions/console-pages.md), as the pure functions the bridge runs: only the module's own
 * routes, in a plain form, and only its own channels. In Chromium: test/hostile/console-pages-browser.test.ts.
 */
import { callRefusal, channelRefusal, SUB_PATH, type ModulePageEntry } from '../../core/console/client/module-pages/page-rules';

const page: ModulePageEntry = {
  module: 'live_chat',
  path: 'inbox',
  label: 'Inbox',
  routes: [
    { method: 'GET', path: '/live-chat/conversations' },
    { method: 'GET', path: '/live-chat/conversations/:id/messages' },
    { method: 'POST', path: '/live-chat/conversations/:id/messages' },
  ],
  channels: ['private-tenant.{tenant_id}.live-chat', 'chat.conversation.{id}'],
};

describe('docs/decisions/console-pages.md: a page calls only its module\'s own routes', () => {
  test('its routes, with parameters, a query, either case of a fixed word and the method in any case', () => {
    for (const [method, path] of [['GET', '/live-chat/conversations'], ['get', '/live-chat/conversations?status=open&search=a%20b'], ['POST', '/live-chat/conversations/42/messages'], ['GET', '/Live-Chat/conversations/x-1/messages']]) {
      expect(callRefusal(page, method, path)).toBeUndefined();
    }
  });

  test('anything else is refused, with the reason', () => {
    const refused = [
      ['GET', '/members'], ['GET', '/auth/me'], ['GET', '/orders'], ['DELETE', '/live-chat/conversations'],
      ['GET', '/live-chat/conversations/42'], ['GET', '/live-chat/conversations/'], ['GET', '/live-chat//conversations'],
      ['GET', '/live-chat/../members'], ['GET', '/live-chat/%2e%2e/members'], ['GET', '/live-chat/conversations/%2F/messages'],
      ['GET', '/live-chat/./conversations'], ['GET', 'live-chat/conversations'], ['GET', 'https://evil.example/live-chat/conversations'],
      ['GET', '//evil.example/live-chat/conversations'], ['GET', '/live-chat/conversations\\..\\members'], ['GET', '/live-chat/conversations?a=1?b'],
      ['GET', '/live-chat/conversations?a=<x>'], ['GET', '/live-chat/conversations#x'], ['GET', 42], [undefined, '/live-chat/conversations'],
    ];
    for (const [method, path] of refused) expect([method, path, callRefusal(page, method, path)]).toEqual([method, path, expect.any(String)]);
    expect(callRefusal(page, 'GET', '/members')).toBe('GET /members is not a route of the module live_chat: a console page calls only its own module\'s routes');
  });
});

describe('docs/decisions/console-pages.md: a page follows only its module\'s own channels, and moves only within itself', () => {
  test('channels', () => {
    expect(channelRefusal(page, 'private-tenant.abc.live-chat')).toBeUndefined();
    expect(channelRefusal(page, 'chat.conversation.9')).toBeUndefined();
    for (const channel of ['private-user.1', 'modules.operations', 'private-tenant.abc.orders', 'chat.conversation.9.x', 7]) {
      expect(channelRefusal(page, channel)).toEqual(expect.any(String));
    }
  });

  test('sub-paths', () => {
    for (const sub of ['', '/42', '/reports/weekly']) expect(SUB_PATH.test(sub)).toBe(true);
    for (const sub of ['42', '/..', '/../../admin', '//evil.example', '/a?b', '/a#b', '/%2e%2e']) expect(SUB_PATH.test(sub)).toBe(false);
  });
});
