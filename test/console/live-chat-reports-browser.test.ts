/**
 * The inbox's live chat reports in a real browser (Debian's Chromium driven by playwright-core, a real
 * platform with the live_chat module in its sandbox; modules/live-chat/README, Reports): conversations
 * arranged in the tenant's database at known times, the owner opens Agent inbox → Reports, picks the
 * period, and the SVG bar chart shows one bar per day that has a value, scaled to the largest; per week
 * and per metric on request; the per-agent and per-team tables. Screenshot:
 * artifacts/console-live-chat-reports.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { QueryTypes } from 'sequelize';
import { findChromium } from '../support/chromium';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { installLocal, signIn, until } from './support';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'artifacts');
const LIVE_CHAT_DIR = path.join(ROOT, 'modules', 'live-chat');
const found = findChromium();
if ('reason' in found) console.warn(`live chat reports browser test skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

describe(`live chat reports in the console inbox (beyond spec 2, Live chat), in Chromium${'reason' in found ? ` (SKIPPED: ${found.reason})` : ''}`, () => {
  let tp: TestPlatform;
  let browser: Browser | undefined;
  let problems: string[] = [];

  beforeAll(async () => {
    if (!('path' in found)) return;
    tp = await startTestPlatform();
    const owner = await tp.install('acme');
    await installLocal(tp, { token: owner.token, tenant: 'acme' }, LIVE_CHAT_DIR, 'live_chat');
    // Oct 2: first responses after 60 s and 120 s (average 90), one rated 5; Oct 4: 300 s, rated 3, resolved after an hour;
    // Oct 6: nobody answered. The Billing team holds Oct 2's.
    await tp.platform.tenantDbs.with(owner.tenantId, async (db) => {
      const q = (sql: string) => db.query<{ id: number }>(sql, { type: QueryTypes.SELECT });
      const [agent] = await q(`INSERT INTO live_chat.agents (user_id, name) VALUES (${owner.userId + 1000}, 'Asha') RETURNING id`);
      const [team] = await q(`INSERT INTO live_chat.teams (name) VALUES ('Billing') RETURNING id`);
      const [a, t] = [agent.id, team.id];
      await q(`INSERT INTO live_chat.conversations (widget_id, visitor_id, agent_id, team_id, status, priority, handler_type, created_at, updated_at, first_response_at, resolved_at, rating) VALUES
        (1, 1, ${a}, ${t}, 'waiting', 'normal', 'agent', '2026-10-02T10:00:00Z', now(), '2026-10-02T10:01:00Z', NULL, 5),
        (1, 2, ${a}, ${t}, 'waiting', 'normal', 'agent', '2026-10-02T11:00:00Z', now(), '2026-10-02T11:02:00Z', NULL, NULL),
        (1, 3, ${a}, NULL, 'resolved', 'normal', 'agent', '2026-10-04T09:00:00Z', now(), '2026-10-04T09:05:00Z', '2026-10-04T10:00:00Z', 3),
        (1, 4, NULL, NULL, 'pending', 'normal', 'agent', '2026-10-06T09:00:00Z', now(), NULL, NULL, NULL)`);
    });
    browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await tp?.close();
  });

  async function reportsPage(): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 1000 } });
    problems = [];
    // The owner is no live chat agent: the inbox's own GET /live-chat/agents/me answers 404, as it should.
    page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/live-chat/agents/me')) problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
    page.on('pageerror', (e) => problems.push(e.message));
    await signIn(page, tp.url, 'acme', 'ada@acme.example', 'correct-horse-battery');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agent inbox' }).click();
    await page.locator('[data-reports-toggle]').click();
    await page.getByRole('heading', { name: 'Live chat reports' }).waitFor();
    await page.locator('[data-report-from]').fill('2026-10-01');
    await page.locator('[data-report-to]').fill('2026-10-07');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    return page;
  }

  const bars = (page: Page) =>
    // The tests compile without the DOM library: an element is what the callback reads of it.
    page.locator('[data-chart] rect[data-bar]').evaluateAll((rects) => (rects as unknown as Array<{ getAttribute(name: string): string | null }>).map((r) => ({ day: r.getAttribute('data-bar'), value: Number(r.getAttribute('data-value')), height: Number(r.getAttribute('height')) })));

  browserTest('the chart has a bar per day with a first response, scaled to the largest; per week and CSAT on request; agent and team tables', async () => {
    const page = await reportsPage();
    await until(async () => (await bars(page)).length === 2, 'the two days with a first response');
    const days = await bars(page);
    expect(days.map((b) => [b.day, b.value])).toEqual([['2026-10-02', 90], ['2026-10-04', 300]]);
    // 300 s is the full height; 90 s is 30 % of it.
    expect(days[0].height / days[1].height).toBeCloseTo(0.3, 5);
    expect(await page.locator('[data-y-max]').textContent()).toBe('5m');
    expect(await page.locator('[data-report-totals]').textContent()).toContain('4 conversations · first response 2m 40s average, 2m median');
    expect(await page.locator('[data-report-table=agent_id] [data-row]').allTextContents()).toEqual(['Asha32m 40s / 2m1h / 1h4.00 (2, 50% 4-5)']);
    expect(await page.locator('[data-report-table=team_id] [data-row]').allTextContents()).toEqual(['Billing21m 30s / 1m 30s— / —5.00 (1, 100% 4-5)', 'No team25m / 5m1h / 1h3.00 (1, 0% 4-5)']);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-live-chat-reports.png'), fullPage: true });

    await page.locator('[data-report-series]').selectOption('csat');
    await until(async () => (await bars(page)).map((b) => b.value).join() === '5,3', 'the CSAT bars');
    await page.locator('[data-report-group]').selectOption('week');
    // From Thursday Oct 1: the weeks of Monday Sep 28 (ratings 5 and 3) and Oct 5 (none).
    await until(async () => JSON.stringify((await bars(page)).map((b) => [b.day, b.value])) === '[["2026-09-28",4]]', 'one weekly CSAT bar');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
