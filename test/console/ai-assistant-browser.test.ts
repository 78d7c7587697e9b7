/**
 * The AI assistant panel of the web console in a real browser (Debian's Chromium driven by
 * playwright-core; a real platform with the ai and orders modules in their sandboxes; the stand-in
 * model of modules/ai's tests): spec 2, AI agent chat with role-scoped tools and Authentication 3
 * (only users with ai.view reach the AI widget). The screenshot goes to artifacts/console-ai-assistant.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { llmStandIn, type LlmStandIn } from '../../modules/ai/test/agent-support';
import { findChromium } from '../support/chromium';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { installLocal, ORDERS, orderBody, signIn, until } from './support';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'artifacts');
const AI_DIR = path.join(ROOT, 'modules', 'ai');
const found = findChromium();
if ('reason' in found) console.warn(`console AI assistant browser tests skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

const HOSTILE = '<img src=x onerror="window.__pwned = 1"><b>bold?</b>';

describe(`spec 2 AI: the assistant panel of the web console, in Chromium${'reason' in found ? ` (SKIPPED, no Chromium: ${found.reason})` : ''}`, () => {
  let tp: TestPlatform;
  let llm: LlmStandIn;
  let browser: Browser | undefined;
  let orderId = '';
  let orderNumber = '';
  let problems: string[] = [];

  beforeAll(async () => {
    if (!('path' in found)) return;
    llm = await llmStandIn();
    tp = await startTestPlatform();
    const owner = await tp.install('acme');
    const who = { token: owner.token, tenant: 'acme' };
    await installLocal(tp, who, ORDERS, 'orders');
    await installLocal(tp, who, AI_DIR, 'ai');
    const steps: Array<[string, string, unknown]> = [
      ['PATCH', `/admin/tenants/${owner.tenantId}/private-networks`, { allow_private_networks: true }],
      ['POST', '/ai/providers', { id: 'standin', name: 'Stand-in', type: 'vendora_compatible', base_url: `${llm.origin}/v1`, models: ['stand-in-model'] }],
      ['PUT', '/ai/providers/standin/credentials', { api_key: 'sk-standin-0123456789', model: 'stand-in-model' }],
      ['PUT', '/ai/config', { default_provider: 'standin' }],
    ];
    for (const [method, p, body] of steps) {
      const res = await tp.api(p, { ...who, method, body });
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const order = await tp.api('/orders', { ...who, body: orderBody(7, 'confirmed') });
    orderId = order.body.id;
    orderNumber = order.body.order_number;
    await addMember(tp, owner.token, 'acme', { email: 'mo@acme.example', name: 'Mo Member', role: 'member', password: 'member-horse-battery' });
    browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await tp?.close();
    await llm?.close();
  });

  async function consolePage(email = 'ada@acme.example', password = 'correct-horse-battery'): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    problems = [];
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
    page.on('pageerror', (e) => problems.push(e.message));
    await signIn(page, tp.url, 'acme', email, password);
    return page;
  }
  const panel = (page: Page) => page.getByRole('complementary', { name: 'AI assistant' });
  const ask = async (page: Page, text: string) => {
    await panel(page).getByLabel('Message the assistant').fill(text);
    await panel(page).getByRole('button', { name: 'Send' }).click();
  };

  browserTest('chats as the user, shows the tool call and its result, keeps the conversation across pages, and shows model markup as text', async () => {
    const page = await consolePage();
    try {
      await page.getByRole('button', { name: 'AI assistant' }).click();
      llm.script({ tool_calls: [{ name: 'orders.get', arguments: { id: orderId } }] }, { content: `Order ${orderNumber} is confirmed.` });
      await ask(page, `Where is order ${orderNumber}?`);
      await panel(page).getByText(`Order ${orderNumber} is confirmed.`).waitFor();
      // The tool call, readable: its name, and once opened its input and the operation's result.
      const tool = panel(page).locator('details.ai-tool');
      expect(await tool.locator('summary').innerText()).toContain('orders.get');
      await tool.locator('summary').click();
      const body = await tool.locator('.ai-tool-body').innerText();
      expect(body).toContain(orderId);
      expect(body).toContain('"status": "confirmed"');

      // Navigating keeps the panel's conversation, and the next message continues it.
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Modules' }).click();
      await page.getByRole('heading', { name: 'Modules' }).first().waitFor();
      expect(await panel(page).getByText(`Where is order ${orderNumber}?`).count()).toBe(1);
      await page.getByRole('button', { name: 'AI assistant' }).click(); // closed …
      expect(await panel(page).isHidden()).toBe(true);
      await page.getByRole('button', { name: 'AI assistant' }).click(); // … and opened again: still there
      expect(await panel(page).getByText(`Order ${orderNumber} is confirmed.`).count()).toBe(1);

      // Hostile: the model answers markup. It is shown as its characters, nothing is created or run.
      llm.script({ content: HOSTILE });
      await ask(page, 'Say something odd');
      await panel(page).getByText(HOSTILE).waitFor();
      expect(await panel(page).locator('img, b').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      const chats = llm.requests.filter((r) => r.url.endsWith('/chat/completions'));
      // The second question went with the first conversation's memory.
      expect(JSON.stringify(chats.at(-1)!.body.messages)).toContain(`Where is order ${orderNumber}?`);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-ai-assistant.png') });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  browserTest('a member without ai.view has no AI assistant button (spec 2, Authentication 3)', async () => {
    const page = await consolePage('mo@acme.example', 'member-horse-battery');
    try {
      await until(async () => (await page.getByRole('button', { name: 'Sign out' }).count()) === 1, 'the shell');
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
      expect(await page.getByRole('button', { name: 'AI assistant' }).count()).toBe(0);
      expect(await page.getByRole('complementary', { name: 'AI assistant' }).count()).toBe(0);
    } finally {
      await page.close();
    }
  }, 60_000);
});
