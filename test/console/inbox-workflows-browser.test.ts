/**
 * The console's module pages in a real browser (Debian's Chromium driven by playwright-core, a real
 * platform with the live_chat and workflows modules in their sandboxes): the agent inbox answering a
 * visitor of the embedded widget (two browser contexts: a shop's static page with the widget's embed
 * code, and the console), and the workflows viewer's graph and execution logs. Screenshots go to
 * artifacts/console-inbox*.png and artifacts/console-workflow*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../support/chromium';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { bigOrder, sixNodes, WORKFLOWS_CODE_DIR, WORKFLOWS_DIR } from '../workflows/support';
import { attrs, installLocal, signIn, startShopPage, until } from './support';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'artifacts');
const LIVE_CHAT_DIR = path.join(ROOT, 'modules', 'live-chat');
const found = findChromium();
if ('reason' in found) console.warn(`console module pages browser tests skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

const VISITOR_TEXT = 'Hello, is <script>alert(1)</script> my order shipped?';
const NOTE = 'Internal: customer seems upset, offer a coupon';

describe(`spec 2 Live chat and Workflows in the web console, in Chromium${'reason' in found ? ` (SKIPPED, no Chromium: ${found.reason})` : ''}`, () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let who: { token: string; tenant: string };
  let browser: Browser | undefined;
  let shop: Awaited<ReturnType<typeof startShopPage>> | undefined;
  let shopOrigin: string;
  let embed = '';
  let problems: string[] = [];

  beforeAll(async () => {
    if (!('path' in found)) return;
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    who = { token: owner.token, tenant: 'acme' };
    // A shop's static page on its own origin, embedding the widget by its embed code.
    shop = await startShopPage(() => embed);
    shopOrigin = shop.origin;
    browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    shop?.close();
    await tp?.close();
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

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

  browserTest('the Agent inbox and Workflow viewer pages are in the navigation only once the tenant installed their module, and for users with its permission', async () => {
    const page = await consolePage();
    try {
      await nav(page).getByRole('link', { name: 'Modules' }).waitFor();
      expect(await nav(page).getByRole('link', { name: 'Agent inbox' }).count()).toBe(0);
      expect(await nav(page).getByRole('link', { name: 'Workflow viewer' }).count()).toBe(0);
      await installLocal(tp, who, LIVE_CHAT_DIR, 'live_chat');
      await installLocal(tp, who, WORKFLOWS_CODE_DIR, 'workflows_code');
      await installLocal(tp, who, WORKFLOWS_DIR, 'workflows');
      expect((await tp.api('/auth/me', who)).body.modules).toEqual(['live_chat', 'workflows', 'workflows_code']);
      await page.reload();
      await nav(page).getByRole('link', { name: 'Agent inbox' }).waitFor();
      await nav(page).getByRole('link', { name: 'Workflow viewer' }).waitFor();
    } finally {
      await page.close();
    }
    expect(problems).toEqual([]);

    // A member who may read workflows but not live chat: the viewer, no inbox.
    const role = await tp.api('/roles', { ...who, body: { name: 'flow-reader', description: 'Reads workflows.', permissions: ['workflows.view'] } });
    expect(role.status).toBe(201);
    await addMember(tp, owner.token, 'acme', { email: 'wren@acme.example', name: 'Wren', role: 'flow-reader', password: 'wren-secret-pass-1' });
    const reader = await consolePage('wren@acme.example', 'wren-secret-pass-1');
    try {
      await nav(reader).getByRole('link', { name: 'Workflow viewer' }).waitFor();
      expect(await nav(reader).getByRole('link', { name: 'Agent inbox' }).count()).toBe(0);
    } finally {
      await reader.close();
    }
  }, 180_000);

  browserTest('an agent answers a widget visitor in the inbox: live without reload, reply reaches the widget, an internal note does not, resolve', async () => {
    const agent = await tp.api('/live-chat/agents', { ...who, body: { user_id: owner.userId, name: 'Ada' } });
    expect(agent.status).toBe(201);
    // A second agent, offline (new chats go to Ada), to transfer to.
    await tp.api('/roles', { ...who, body: { name: 'chat-agent', description: 'Answers live chats.', permissions: ['live_chat.view', 'live_chat.reply'] } });
    const priya = await addMember(tp, owner.token, 'acme', { email: 'priya@acme.example', name: 'Priya', role: 'chat-agent' });
    const priyaAgent = await tp.api('/live-chat/agents', { ...who, body: { user_id: priya.userId, name: 'Priya' } });
    expect(priyaAgent.status).toBe(201);
    const widget = await tp.api('/live-chat/widgets', { ...who, body: { name: 'Shop', primary_color: '#0b6e4f', allowed_domains: [shopOrigin] } });
    expect(widget.status).toBe(201);
    embed = (await tp.api(`/live-chat/widgets/${widget.body.id}/embed-code?base_url=${encodeURIComponent(tp.url)}`, who)).body.embed_code;

    const page = await consolePage();
    // The visitor: another browser context (no console session, its own storage), on the shop's page.
    const visitorContext = await browser!.newContext({ viewport: { width: 1000, height: 760 } });
    const shopPage = await visitorContext.newPage();
    const visitorProblems: string[] = [];
    shopPage.on('pageerror', (e) => visitorProblems.push(e.message));
    const inWidget = (selector: string) => shopPage.locator(`[data-mandi-chat] >> ${selector}`);
    try {
      await nav(page).getByRole('link', { name: 'Agent inbox' }).click();
      await page.locator('[data-inbox][data-live="on"]').waitFor();
      await page.locator('[data-my-status]').selectOption('online');
      await until(async () => (await tp.api('/live-chat/agents/me', who)).body.status === 'online', 'the agent to be online');
      expect(await page.locator('[data-conversation]').count()).toBe(0);

      await shopPage.goto(`${shopOrigin}/`);
      await inWidget('button.launcher').click();
      await inWidget('input[name=name]').fill('Vikram <b>V</b>');
      await inWidget('input[name=email]').fill('vikram@example.com');
      await inWidget('form.pre button').click();
      await inWidget('input[name=message]').fill(VISITOR_TEXT);
      await inWidget('input[name=message]').press('Enter');

      // The inbox shows it without a reload: the conversation, its unread count, its last message.
      const row = page.locator('[data-conversation]').first();
      await row.waitFor({ timeout: 15_000 });
      await until(async () => (await row.locator('[data-unread-count]').textContent().catch(() => '')) === '1 unread', 'an unread count of 1');
      expect(await row.locator('.conv-name').textContent()).toBe('Vikram <b>V</b>');
      expect(await row.locator('.conv-last').textContent()).toBe(VISITOR_TEXT);
      const id = Number(await row.getAttribute('data-conversation'));

      await row.getByRole('button').click();
      const pane = page.locator(`[data-open-conversation="${id}"]`);
      const messages = pane.locator('[data-messages] > li');
      await until(async () => (await messages.count()) === 1, 'the visitor message in the open conversation');
      // The visitor's markup is text: nothing was made from it, in the list or the conversation.
      expect(await messages.first().locator('.msg-text').textContent()).toBe(VISITOR_TEXT);
      expect(await page.locator('[data-inbox] script, [data-inbox] b').count()).toBe(0);
      expect(await row.locator('[data-unread-count]').count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe(`/admin/inbox/${id}`);

      await pane.locator('[data-composer]').fill('Yes! It ships <i>today</i>.');
      await pane.locator('[data-send]').click();
      await inWidget('.m.agent').waitFor({ timeout: 15_000 });
      expect(await inWidget('.m.agent').textContent()).toBe('Yes! It ships <i>today</i>.');
      await until(async () => (await messages.count()) === 2, 'the reply in the open conversation');

      // The `/` shortcut (live chat README, Canned responses): `/` and a prefix offer the matches, Enter inserts one.
      expect((await tp.api('/live-chat/canned-responses', { ...who, body: { short_code: 'shipping', content: 'Orders ship within 2 business days.' } })).status).toBe(201);
      expect((await tp.api('/live-chat/canned-responses', { ...who, body: { short_code: 'refund', content: 'Refunds take 5 days.' } })).status).toBe(201);
      await pane.locator('[data-composer]').fill('/sh');
      await pane.locator('[data-canned="shipping"]').waitFor();
      expect(await pane.locator('[data-canned]').count()).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-inbox-canned.png') });
      await pane.locator('[data-composer]').press('Enter');
      await until(async () => (await pane.locator('[data-composer]').inputValue()) === 'Orders ship within 2 business days.', 'the canned response in the composer');
      expect(await pane.locator('[data-canned-picker]').count()).toBe(0);
      expect(await messages.count()).toBe(2);
      await pane.locator('[data-composer]').fill('');

      // An internal note: marked in the inbox, never in the widget. A reply sent after it reaches the
      // widget, so the note would have arrived before it had it been sent there.
      await pane.locator('[data-internal-toggle]').check();
      await pane.locator('[data-composer]').fill(NOTE);
      await pane.locator('[data-send]').click();
      const note = pane.locator('[data-internal="true"]');
      await note.waitFor();
      expect(await note.textContent()).toContain('Internal note · not shown to the visitor');
      expect(await note.locator('.msg-text').textContent()).toBe(NOTE);
      await pane.locator('[data-internal-toggle]').uncheck();
      await pane.locator('[data-composer]').fill('Anything else?');
      await pane.locator('[data-send]').click();
      await until(async () => (await inWidget('.m.agent').count()) === 2, 'the second reply in the widget');
      expect(await inWidget('.log').textContent()).not.toContain('coupon');
      expect((await shopPage.content()).includes('coupon')).toBe(false);

      // The visitor answers; the open conversation shows it without a reload.
      await inWidget('input[name=message]').fill('No, thanks!');
      await inWidget('input[name=message]').press('Enter');
      await until(async () => (await messages.count()) === 5, 'the visitor answer in the open conversation');
      expect(await messages.last().getAttribute('data-sender')).toBe('visitor');
      await until(async () => (await row.locator('.conv-last').textContent()) === 'No, thanks!', 'the list to show the last message');
      // The visitor answered: active again (waiting was for the visitor), in the list and the open conversation.
      await until(async () => (await pane.getAttribute('data-status')) === 'active' && (await row.locator('.badge').first().textContent()) === 'active', 'the conversation to be active');
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-inbox-open.png') });
      const conversation = async () => (await tp.api(`/live-chat/conversations/${id}`, who)).body;
      expect((await conversation()).agent_id).toBe(agent.body.id);

      // Transfer to Priya, then raise the priority: the API holds both, the list shows them.
      await pane.locator('[data-assign]').selectOption(String(priyaAgent.body.id));
      await until(async () => (await conversation()).agent_id === priyaAgent.body.id, 'the transfer to Priya');
      await until(async () => ((await row.locator('.conv-meta').textContent()) ?? '').includes('→ Priya'), 'the list to name Priya');
      await pane.locator('[data-priority]').selectOption('high');
      await until(async () => (await conversation()).priority === 'high', 'the high priority');
      await until(async () => (await row.locator('.badge').allTextContents()).includes('high'), 'the list to show the priority');

      await pane.locator('[data-conv-action="resolve"]').click();
      await page.locator(`[data-open-conversation="${id}"][data-status="resolved"]`).waitFor();
      expect((await tp.api(`/live-chat/conversations/${id}`, who)).body.status).toBe('resolved');
      // Resolved leaves the Open tab and is under Resolved.
      await until(async () => (await page.locator(`[data-conversation="${id}"]`).count()) === 0, 'the conversation to leave the Open tab');
      await page.locator('[data-tab="resolved"]').click();
      await page.locator(`[data-conversation="${id}"]`).waitFor();
      await pane.locator('[data-conv-action="reopen"]').waitFor();

      // Phone width: the open conversation alone, with a way back to the list.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.locator('.inbox-list').isVisible()).toBe(false);
      expect((await pane.boundingBox())!.width).toBeLessThanOrEqual(390);
      await pane.getByRole('link', { name: '← All conversations' }).click();
      await page.locator(`[data-conversation="${id}"]`).waitFor();
      expect(await page.locator('[data-open-conversation]').count()).toBe(0);
    } finally {
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-inbox.png') });
      await shopPage.screenshot({ path: path.join(ARTIFACTS, 'console-inbox-widget.png') });
      await visitorContext.close();
      await page.close();
    }
    expect(problems).toEqual([]);
    expect(visitorProblems).toEqual([]);
  }, 120_000);

  browserTest('a stored workflow\'s graph, its executions, and one execution\'s logs per node render', async () => {
    const created = await tp.api('/workflows', { ...who, body: sixNodes({ node_type: 'workflows:manual-trigger' }) });
    expect(created.status).toBe(201);
    const wf = created.body.data;
    const run = await tp.api(`/workflows/${wf.id}/test`, { ...who, body: { data: bigOrder } });
    expect(run.body.data).toMatchObject({ status: 'completed' });
    const logs = (await tp.api(`/workflow-executions/${run.body.data.execution_id}/logs`, who)).body.data as Array<{ node_label: string }>;

    const page = await consolePage();
    try {
      await nav(page).getByRole('link', { name: 'Workflow viewer' }).click();
      const listed = page.locator('[data-table="workflows"] [data-workflow="Big order follow-up"]');
      await listed.waitFor();
      expect(await listed.locator('.badge').textContent()).toBe('draft');
      expect(await listed.textContent()).toContain('1 (1 / 0)');
      await listed.getByRole('link').click();

      // The graph: every node, every connection, the condition's branches labelled, laid out in layers.
      const graph = page.locator('[data-graph]');
      await graph.waitFor();
      expect(await graph.locator('[data-node]').count()).toBe(6);
      const edges = await attrs(graph.locator('[data-edge]'), 'data-edge');
      expect(edges.sort()).toEqual(['Big?->Shape', 'Big?->Small', 'Remember->Big?', 'Shape->Mail', 'Start->Remember']);
      expect(await graph.locator('.wf-edge-label').allTextContents()).toEqual(['true', 'false']);
      const x = async (label: string) => (await graph.locator(`[data-node="${label}"]`).boundingBox())!.x;
      expect(await x('Start')).toBeLessThan(await x('Remember'));
      expect(await x('Shape')).toBe(await x('Small'));
      expect(await x('Shape')).toBeLessThan(await x('Mail'));
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-workflow.png'), fullPage: true });

      await page.locator(`[data-execution="${run.body.data.execution_id}"]`).getByRole('link').click();
      await page.locator('[data-execution-detail]').waitFor();
      expect(await page.locator('[data-execution-status]').textContent()).toBe('completed');
      const rows = page.locator('[data-log]');
      await until(async () => (await rows.count()) === logs.length, 'the logs');
      expect(await attrs(rows, 'data-log')).toEqual(logs.map((l) => l.node_label));
      expect(logs.map((l) => l.node_label)).toEqual(['Start', 'Remember', 'Big?', 'Shape', 'Mail']);
      for (const r of await rows.all()) {
        expect(await r.getAttribute('data-log-status')).toBe('completed');
        expect(await r.locator('[data-log-duration]').textContent()).toMatch(/^\d+ ms$|^\d+\.\d+ s$/);
      }
      // Input and output of a node, as the engine logged them.
      const shape = page.locator('[data-log="Shape"]');
      await shape.locator('summary').click();
      expect(JSON.parse((await shape.locator('[data-log-output]').textContent())!)).toMatchObject({ values: { subject: 'Thanks Asha', total: 250 } });
      // The graph colours what ran; the branch not taken stays uncoloured.
      const graphNow = page.locator('[data-graph]');
      expect(await graphNow.locator('[data-node="Shape"]').getAttribute('data-node-status')).toBe('completed');
      expect(await graphNow.locator('[data-node="Small"]').getAttribute('data-node-status')).toBeNull();
    } finally {
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-workflow-execution.png'), fullPage: true });
      await page.close();
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
