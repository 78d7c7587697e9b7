/**
 * The AI runs pages of the web console in a real browser (Debian's Chromium driven by playwright-core;
 * a real platform with the ai and orders modules in their sandboxes; the stand-in model of
 * modules/ai's tests): spec 2, Graph run (a human node pauses the run until a person answers) and
 * Graph flows (runs "can pause for human approval"). An approver follows the bell's notification to
 * the run, approves, the run completes and the notification is resolved; a member holding only
 * ai.view reads runs without answer controls; model text is shown as text. The screenshot goes to
 * artifacts/console-ai-run.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { llmStandIn, type LlmStandIn } from '../../modules/ai/test/agent-support';
import { findChromium } from '../support/chromium';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { attrs, installLocal, ORDERS, orderBody, signIn, until } from './support';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'artifacts');
const AI_DIR = path.join(ROOT, 'modules', 'ai');
const found = findChromium();
if ('reason' in found) console.warn(`console AI runs browser tests skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;


const HOSTILE = '<img src=x onerror="window.__pwned = 1"><b>bold?</b>';

describe(`spec 2 AI Graph run: the console page where an approver answers a paused run, in Chromium${'reason' in found ? ` (SKIPPED, no Chromium: ${found.reason})` : ''}`, () => {
  let tp: TestPlatform;
  let llm: LlmStandIn;
  let browser: Browser | undefined;
  let who: { token: string; tenant: string };
  let orders = 0;
  let problems: string[] = [];

  const call = async (p: string, method = 'GET', body?: unknown) => {
    const res = await tp.api(p, { ...who, method, body });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** A fraud review of a new pending order; a risk of 0.5 pauses for a reviewer, 0.1 completes by itself. */
  const fraudReview = async (risk: number, signals: string[] = []) => {
    const order = await call('/orders', 'POST', orderBody(++orders, 'pending'));
    llm.script({ content: JSON.stringify({ risk_score: risk, signals, reasoning: 'new customer' }) });
    const run = await call('/ai/agent/graph/run', 'POST', { flow_type: 'fraud_review', input_data: { order_id: order.id } });
    return { runId: run.run_id as string, status: run.status as string, orderId: order.id as string };
  };

  beforeAll(async () => {
    if (!('path' in found)) return;
    llm = await llmStandIn();
    tp = await startTestPlatform();
    const owner = await tp.install('acme');
    who = { token: owner.token, tenant: 'acme' };
    await installLocal(tp, who, ORDERS, 'orders');
    await installLocal(tp, who, AI_DIR, 'ai');
    await call(`/admin/tenants/${owner.tenantId}/private-networks`, 'PATCH', { allow_private_networks: true });
    await call('/ai/providers', 'POST', { id: 'standin', name: 'Stand-in', type: 'vendora_compatible', base_url: `${llm.origin}/v1`, models: ['stand-in-model'] });
    await call('/ai/providers/standin/credentials', 'PUT', { api_key: 'sk-standin-0123456789', model: 'stand-in-model' });
    await call('/ai/config', 'PUT', { default_provider: 'standin' });
    await call('/roles', 'POST', { name: 'ai-reader', description: 'reads AI runs', permissions: ['ai.view'] });
    await addMember(tp, owner.token, 'acme', { email: 'vi@acme.example', name: 'Vi Viewer', role: 'ai-reader', password: 'viewer-horse-battery' });
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
  const approvalNote = async (runId: string) => {
    const body = await call('/notifications?module=ai&per_page=100');
    return (body.notifications as Array<{ read_at: string | null; data: { run_id: string } }>).find((n) => n.data?.run_id === runId);
  };

  browserTest('the approver opens the notification from the bell, reads what the node asks as text, approves; the run completes and the notification is resolved', async () => {
    const { runId, status, orderId } = await fraudReview(0.5, [HOSTILE]);
    expect(status).toBe('paused');
    const page = await consolePage();
    try {
      await page.getByRole('button', { name: /^Notifications/ }).click();
      const note = page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Fraud review waits for your approval' });
      await note.getByRole('link', { name: 'Open' }).click();
      await page.getByRole('heading', { name: /^Fraud review/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/admin/ai-runs/${runId}`);
      expect(await page.locator('[data-run-status]').textContent()).toBe('paused');
      expect(await page.locator('[data-current-node]').innerText()).toBe('ReviewFraud');

      // What the node asks, with the model's hostile signal as its characters: nothing made of it.
      const prompt = page.locator('[data-run-prompt]');
      expect(await prompt.innerText()).toContain(HOSTILE);
      expect(await prompt.innerText()).toContain('Decide APPROVE, HOLD or CANCEL.');
      expect(await page.locator('main img, main b').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      // The steps so far, as the status endpoint gives them.
      expect(await attrs(page.locator('[data-step]'), 'data-step')).toEqual(['AssessOrder', 'ScoreFraudRisk', 'FraudDecision']);
      await page.getByRole('link', { name: 'AI runs' }).first().waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-ai-run.png'), fullPage: true });

      await page.getByLabel('notes').fill('known customer, called back');
      await page.getByRole('button', { name: 'APPROVE' }).click();
      await until(async () => (await page.locator('[data-run-status]').textContent()) === 'completed', 'the run to complete');
      expect(await page.getByRole('button', { name: 'APPROVE' }).count()).toBe(0);
      expect(await attrs(page.locator('[data-step]'), 'data-step')).toEqual(['AssessOrder', 'ScoreFraudRisk', 'FraudDecision', 'ReviewFraud', 'TakeAction']);
      expect(await page.locator('[data-final-output]').innerText()).toContain('"outcome": "APPROVE"');

      // The run really moved: the order is confirmed, the reviewer's notes kept, the notification resolved.
      expect((await call(`/orders/${orderId}`)).status).toBe('confirmed');
      expect((await call(`/ai/agent/graph/${runId}/status`)).state.ReviewFraud).toEqual({ decision: 'APPROVE', notes: 'known customer, called back' });
      expect((await approvalNote(runId))?.read_at).toEqual(expect.any(String));
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  browserTest('the list puts paused runs first and filters by status; a member holding only ai.view reads a paused run without answer controls', async () => {
    const paused = await fraudReview(0.5);
    const done = await fraudReview(0.1); // newer, and completed by itself
    expect([paused.status, done.status]).toEqual(['paused', 'completed']);
    const page = await consolePage('vi@acme.example', 'viewer-horse-battery');
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'AI runs' }).click();
      await page.locator('[data-table="ai-runs"]').waitFor();
      const rows = () => attrs(page.locator('[data-table="ai-runs"] tbody tr'), 'data-run');
      const listed = await rows();
      expect(listed.indexOf(paused.runId)).toBeGreaterThanOrEqual(0);
      expect(listed.indexOf(paused.runId)).toBeLessThan(listed.indexOf(done.runId));
      await page.locator('[data-filter="run-status"]').selectOption('completed');
      await until(async () => !(await rows()).includes(paused.runId), 'the completed filter');
      expect(await rows()).toContain(done.runId);
      await page.locator('[data-filter="run-status"]').selectOption('');
      await until(async () => (await rows()).includes(paused.runId), 'all runs again');

      await page.locator(`[data-run="${paused.runId}"] a`).click();
      await page.locator('[data-run-prompt]').waitFor();
      expect(await page.locator('[data-read-only]').count()).toBe(1);
      expect(await page.getByRole('button', { name: /^(APPROVE|HOLD|CANCEL|Cancel run)$/ }).count()).toBe(0);
      expect(await page.getByRole('form', { name: 'Your answer' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
