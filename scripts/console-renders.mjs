// Loads `/` of a running platform in Chromium (scripts/chromium.mjs) and exits 0 when the web
// console rendered, 1 otherwise (scripts/production-start-check.sh, a CI step).
//   node scripts/console-renders.mjs <platform url> [seconds to wait for it to answer]
import { launchChromium } from './chromium.mjs';

const [url, waitSeconds = '240'] = process.argv.slice(2);
if (!url) {
  process.stderr.write('usage: node scripts/console-renders.mjs <platform url> [seconds]\n');
  process.exit(2);
}
const fail = (why) => {
  process.stderr.write(`console-renders: ${why}\n`);
  process.exit(1);
};

// The first start installs dependencies and PostgreSQL, so the platform answers late.
const deadline = Date.now() + Number(waitSeconds) * 1000;
for (;;) {
  const up = await fetch(`${url}/api/v1/health`).then((r) => r.status < 500, () => false);
  if (up) break;
  if (Date.now() > deadline) fail(`${url} did not answer within ${waitSeconds} s`);
  await new Promise((r) => setTimeout(r, 1000));
}

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  const res = await page.goto(`${url}/`);
  if (!res || res.status() !== 200) fail(`GET / answered ${res?.status()}: ${(await res?.text())?.slice(0, 300)}`);
  // The page is an empty #app until the bundle runs: any element in it is the console rendering.
  const rendered = await page.locator('#app > *').first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
  if (!rendered || problems.length) fail(`the console did not render at ${url}/ ${problems.join('; ')}`);
  process.stdout.write(`console-renders: the console rendered at ${url}/ (${(await page.locator('#app').innerText()).trim().split('\n')[0]})\n`);
} finally {
  await browser.close();
}
