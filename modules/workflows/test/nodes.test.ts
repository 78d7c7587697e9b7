/**
 * Spec 2, Node registry: the built-in nodes' operations, built only with the SDK and run by
 * createTestHost in the real sandbox with the real bus: what each answers for the engine (branch,
 * suspend_seconds, variables), and the code node's evaluator in its own module.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing';

let host: TestHost;

beforeAll(async () => {
  host = await createTestHost({ modulePath: path.resolve(__dirname, '..'), withModules: [path.resolve(__dirname, '../../workflows-code')] });
}, 240_000);

afterAll(async () => {
  await host?.close();
});

describe('spec 2 built-in nodes: operations of the workflows module', () => {
  test.each([
    [{ left: 250, operator: 'gt', right: 100 }, 'true'],
    [{ left: '40', operator: 'gt', right: 100 }, 'false'],
    [{ left: 'a@b.c', operator: 'contains', right: '@' }, 'true'],
    [{ left: '', operator: 'empty' }, 'true'],
    [{ left: 'paid', operator: 'neq', right: 'paid' }, 'false'],
  ])('condition %j answers branch %s', async (input, branch) => {
    expect(await host.call('workflows.condition', input)).toEqual({ branch, result: branch === 'true' });
  });

  test('switch answers the matching case or "default"', async () => {
    expect(await host.call('workflows.switch', { value: 'cod', cases: ['cod', 'upi'] })).toEqual({ branch: 'cod' });
    expect(await host.call('workflows.switch', { value: 'card', cases: ['cod', 'upi'] })).toEqual({ branch: 'default' });
  });

  test('delay asks to suspend; set-variable and transform answer what the engine merges and exposes', async () => {
    expect(await host.call('workflows.delay', { seconds: 90 })).toEqual({ suspend_seconds: 90 });
    await expect(host.call('workflows.delay', { seconds: 0 })).rejects.toMatchObject({ status: 422 });
    expect(await host.call('workflows.set_variable', { name: 'who', value: 'Asha' })).toEqual({ variables: { who: 'Asha' } });
    expect(await host.call('workflows.transform', { values: { a: 1 } })).toEqual({ values: { a: 1 } });
  });

  test('send-email goes through the platform mail transport', async () => {
    expect(await host.call('workflows.send_email', { to: 'ravi@example.com', subject: 'Hello from a node', body: 'Hi' })).toEqual({ sent: true, to: 'ravi@example.com' });
    await host.waitForMail((m) => m.subject === 'Hello from a node');
  });

  test('the code node evaluates in workflows_code, JSON in and out; a throw is an error', async () => {
    expect(await host.call('workflows_code.evaluate', { expression: 'data.items.map((i) => i * 2)', data: { items: [1, 2] } })).toEqual({ result: [2, 4] });
    await expect(host.call('workflows_code.evaluate', { expression: '(() => { throw new Error("nope") })()' })).rejects.toThrow(/nope/);
  });
});
