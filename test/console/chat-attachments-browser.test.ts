/**
 * Files in live chat as a visitor and an agent use them (live chat README, Attachments; beyond spec 2
 * Live chat), in a real browser (Debian's Chromium driven by playwright-core, a real platform with the
 * live_chat module in its sandbox): the visitor picks a file with the widget's button on a shop's page,
 * the agent sees it in the console inbox (thumbnail, name, size) and downloads it (the bytes, served
 * as an attachment with nosniff); the agent attaches files from the composer (button, and a drop on
 * it) and the visitor sees them; an HTML or SVG file named .png, and an over-size one, are refused
 * with the server's message in both places and nothing is stored. Screenshots go to
 * artifacts/console-inbox-attachments*.png and artifacts/live-chat-widget-attachments*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { QueryTypes } from 'sequelize';
import { findChromium } from '../support/chromium';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { installLocal, signIn, startShopPage, until } from './support';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'artifacts');
const LIVE_CHAT_DIR = path.join(ROOT, 'modules', 'live-chat');
const found = findChromium();
if ('reason' in found) console.warn(`live chat attachments browser tests skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

/** A PNG of one colour, big enough to be seen in the screenshots (RGB, 8 bits, no interlace). */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
const PNG_BYTES = solidPng(96, 64, [11, 110, 79]);
const PNG = PNG_BYTES.toString('base64');
const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n');
const HTML_AS_PNG = Buffer.from('<!doctype html><script>fetch("/api/v1/auth/me")</script>');
const SVG_AS_PNG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');

/** A browser's naturalWidth of an image (the tests compile without the DOM library). */
const naturalWidth = (img: unknown) => (img as { naturalWidth: number }).naturalWidth;

describe(`live chat attachments in the widget and the console inbox (beyond spec 2 Live chat, README Attachments), in Chromium${'reason' in found ? ` (SKIPPED: ${found.reason})` : ''}`, () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let who: { token: string; tenant: string };
  let browser: Browser | undefined;
  let shop: Awaited<ReturnType<typeof startShopPage>> | undefined;
  let shopOrigin: string;
  let embed = '';

  beforeAll(async () => {
    if (!('path' in found)) return;
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    who = { token: owner.token, tenant: 'acme' };
    await installLocal(tp, who, LIVE_CHAT_DIR, 'live_chat');
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

  const storedFiles = () =>
    tp.platform.tenantDbs.with(owner.tenantId, async (db) => (await db.query<{ name: string }>('SELECT name FROM live_chat.attachments ORDER BY id', { type: QueryTypes.SELECT })).map((r) => r.name));

  browserTest('a visitor sends a file from the widget, the agent downloads it in the inbox and answers with files; refused files show the server\'s message on both sides and are not stored', async () => {
    expect((await tp.api('/live-chat/agents', { ...who, body: { user_id: owner.userId, name: 'Ada' } })).status).toBe(201);
    const widget = await tp.api('/live-chat/widgets', { ...who, body: { name: 'Shop', collect_name: false, collect_email: false, allowed_domains: [shopOrigin] } });
    expect(widget.status).toBe(201);
    embed = (await tp.api(`/live-chat/widgets/${widget.body.id}/embed-code?base_url=${encodeURIComponent(tp.url)}`, who)).body.embed_code;

    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
    page.on('pageerror', (e) => problems.push(e.message));
    await signIn(page, tp.url, 'acme', 'ada@acme.example', 'correct-horse-battery');
    const visitorContext = await browser!.newContext({ viewport: { width: 1000, height: 760 } });
    const shopPage = await visitorContext.newPage();
    const visitorProblems: string[] = [];
    shopPage.on('pageerror', (e) => visitorProblems.push(e.message));
    const inWidget = (selector: string) => shopPage.locator(`[data-mandi-chat] >> ${selector}`);
    /** Picks a file with the widget's button, through the browser's own file chooser. */
    const visitorPicks = async (name: string, mimeType: string, buffer: Buffer) => {
      const chooser = shopPage.waitForEvent('filechooser');
      await inWidget('button.attach').click();
      await (await chooser).setFiles({ name, mimeType, buffer });
    };
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agent inbox' }).click();
      await page.locator('[data-inbox][data-live="on"]').waitFor();
      await page.locator('[data-my-status]').selectOption('online');
      await until(async () => (await tp.api('/live-chat/agents/me', who)).body.status === 'online', 'the agent to be online');

      // The visitor opens the chat: the file button comes with the conversation, and is a labelled button.
      await shopPage.goto(`${shopOrigin}/`);
      await inWidget('button.launcher').click();
      expect(await inWidget('button.attach').isVisible()).toBe(false);
      await inWidget('input[name=message]').fill('My parcel arrived damaged');
      await inWidget('input[name=message]').press('Enter');
      await inWidget('button.attach').waitFor({ state: 'visible', timeout: 15_000 });
      expect(await inWidget('button.attach').getAttribute('aria-label')).toBe('Attach a file');
      expect(await inWidget('input[type=file]').count()).toBe(1);

      // The upload is held at the network until "Sending …" has shown, so the state is seen, not raced.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      await shopPage.route('**/attachments', async (route) => { await held; await route.continue(); });
      // Keyboard: the button is reached with Tab from the message box and opened with Enter.
      const chooser = shopPage.waitForEvent('filechooser');
      await inWidget('input[name=message]').focus();
      await shopPage.keyboard.press('Shift+Tab');
      expect(await inWidget('button.attach').evaluate((b) => (b as unknown as { matches(s: string): boolean }).matches(':focus'))).toBe(true);
      await shopPage.keyboard.press('Enter');
      await (await chooser).setFiles({ name: 'box.png', mimeType: 'image/png', buffer: PNG_BYTES });
      await until(async () => (await inWidget('.status').textContent()) === 'Sending box.png\u2026', 'the widget to say it is sending');
      release();
      const mine = inWidget('.m.visitor').last();
      await mine.locator('img.thumb').waitFor({ state: 'attached', timeout: 15_000 });
      await shopPage.unroute('**/attachments');
      expect(await mine.locator('img.thumb').evaluate(naturalWidth)).toBe(96);
      expect(await mine.locator('a.file').textContent()).toBe('box.png (1 KB)');
      expect(await inWidget('.status').textContent()).toBe('');

      // The agent sees it in the inbox: a thumbnail from the bytes, the name and the size.
      const row = page.locator('[data-conversation]').first();
      await row.waitFor({ timeout: 15_000 });
      const id = Number(await row.getAttribute('data-conversation'));
      await row.getByRole('button').click();
      const pane = page.locator(`[data-open-conversation="${id}"]`);
      const file = pane.locator('[data-attachment]').first();
      await file.locator('[data-thumb]').waitFor({ timeout: 15_000 });
      await until(async () => (await file.locator('[data-thumb]').evaluate(naturalWidth)) === 96, 'the thumbnail to load');
      expect(await file.locator('[data-download]').textContent()).toBe('box.png');
      expect(await file.locator('[data-size]').textContent()).toBe(`${PNG_BYTES.length} B`);
      // The thumbnail is drawn from memory, never from the platform's URL.
      expect(await file.locator('[data-thumb]').getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);

      // The agent downloads it: the same bytes, served as an attachment that is never sniffed.
      const served = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(`/api/v1/live-chat/conversations/${id}/attachments/`));
      const downloaded = page.waitForEvent('download');
      await file.locator('[data-download]').click();
      const answer = await served;
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe('application/octet-stream');
      expect(answer.headers()['content-disposition']).toBe(`attachment; filename="box.png"; filename*=UTF-8''box.png`);
      expect(answer.headers()['x-content-type-options']).toBe('nosniff');
      const download = await downloaded;
      expect(download.suggestedFilename()).toBe('box.png');
      expect(readFileSync((await download.path())!).equals(PNG_BYTES)).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-inbox-attachments.png') });

      // The agent attaches a PDF with the composer's button; the visitor sees it as a download link.
      const agentChooser = page.waitForEvent('filechooser');
      await pane.locator('[data-attach]').click();
      await (await agentChooser).setFiles({ name: 'return-label.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES });
      await inWidget('.m.agent a.file').waitFor({ timeout: 15_000 });
      expect(await inWidget('.m.agent a.file').textContent()).toBe('return-label.pdf (1 KB)');
      expect(await inWidget('.m.agent img').count()).toBe(0);
      await until(async () => (await pane.locator('[data-attachment]').count()) === 2, 'the PDF in the open conversation');
      expect(await pane.locator('[data-attachment]').nth(1).locator('[data-thumb]').count()).toBe(0);

      // A text file dropped on the composer is sent too.
      const dropped = await page.evaluateHandle(() => {
        const g = globalThis as unknown as { DataTransfer: new () => { items: { add(f: unknown): void } }; File: new (parts: string[], name: string, o: { type: string }) => unknown };
        const dt = new g.DataTransfer();
        dt.items.add(new g.File(['Order #1042: refund approved.\n'], 'notes.txt', { type: 'text/plain' }));
        return dt;
      });
      await pane.locator('[data-drop]').dispatchEvent('dragover', { dataTransfer: dropped });
      await pane.locator('[data-drop]').dispatchEvent('drop', { dataTransfer: dropped });
      await until(async () => (await inWidget('.m.agent a.file').count()) === 2, 'the dropped file in the widget');
      expect(await inWidget('.m.agent a.file').last().textContent()).toBe('notes.txt (1 KB)');
      await shopPage.screenshot({ path: path.join(ARTIFACTS, 'live-chat-widget-attachments.png') });

      // Refused: an HTML page and an SVG named .png, and a file over 512 KB. The widget shows the
      // server's message, nothing new is in the thread, nothing is stored.
      await visitorPicks('invoice.png', 'image/png', HTML_AS_PNG);
      await until(async () => (await inWidget('.status.error').count()) === 1, 'the widget to show the refusal');
      expect(await inWidget('.status').textContent()).toBe('invoice.png: The file is not image/png.');
      await visitorPicks('logo.png', 'image/png', SVG_AS_PNG);
      await until(async () => (await inWidget('.status').textContent()) === 'logo.png: The file is not image/png.', 'the SVG refusal in the widget');
      await visitorPicks('huge.png', 'image/png', Buffer.concat([PNG_BYTES, Buffer.alloc(600 * 1024)]));
      await until(async () => (await inWidget('.status').textContent()) === 'huge.png: The file is 601 KB; the limit is 512 KB.', 'the size refusal in the widget');
      await shopPage.screenshot({ path: path.join(ARTIFACTS, 'live-chat-widget-attachments-refused.png') });
      expect(await inWidget('.m.visitor').count()).toBe(2);

      // The same in the console: the API's message beside the composer.
      const agentRefused = page.waitForEvent('filechooser');
      await pane.locator('[data-attach]').click();
      await (await agentRefused).setFiles({ name: 'page.png', mimeType: 'image/png', buffer: SVG_AS_PNG });
      await pane.locator('[data-upload-status="error"]').waitFor();
      expect(await pane.locator('[data-upload-status]').textContent()).toBe('page.png: The file is not image/png.');
      expect(await pane.locator('[data-upload-status]').getAttribute('role')).toBe('alert');
      const htmlRefused = page.waitForEvent('filechooser');
      await pane.locator('[data-attach]').click();
      await (await htmlRefused).setFiles({ name: 'page.html', mimeType: 'text/html', buffer: HTML_AS_PNG });
      await until(async () => ((await pane.locator('[data-upload-status]').textContent()) ?? '').startsWith('page.html: Files of type text/html are not accepted'), 'the HTML refusal in the console');
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-inbox-attachments-refused.png') });

      expect(await pane.locator('[data-attachment]').count()).toBe(3);
      expect(await storedFiles()).toEqual(['box.png', 'return-label.pdf', 'notes.txt']);
      // The refusals were the only failed answers, each the expected one.
      const upload = `/api/v1/live-chat/conversations/${id}/attachments`;
      expect(problems).toEqual([`422 POST ${upload}`, `415 POST ${upload}`]);
    } finally {
      await visitorContext.close();
      await page.close();
    }
    expect(visitorProblems).toEqual([]);
  }, 180_000);
});
