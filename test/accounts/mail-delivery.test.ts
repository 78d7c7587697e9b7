import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { freePort } from '../support/free-port';
import { startSmtpSink } from '../../sdk/testing/smtp-sink';

describe('spec 1 Email verification: how mail leaves the platform', () => {
  test('without SMTP_URL the mail is written to DATA_DIR/outbox as .eml plus a .json summary', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mandi-outbox-'));
    const tp: TestPlatform = await startTestPlatform({ DATA_DIR: dataDir });
    try {
      await tp.install('acme');
      const outbox = path.join(dataDir, 'outbox');
      let files: string[] = [];
      for (let i = 0; i < 100 && files.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 50));
        files = await readdir(outbox).catch(() => []);
      }
      expect(files.map((f) => path.extname(f)).sort()).toEqual(['.eml', '.json']);
      const summary = JSON.parse(await readFile(path.join(outbox, files.find((f) => f.endsWith('.json'))!), 'utf8'));
      expect(summary).toMatchObject({ to: 'ada@acme.example', subject: 'Verify your email address for Acme Stores', from: 'Mandi <no-reply@mandi.test>' });
      expect(summary.text).toMatch(/\/email\/verify\/\d+\/[0-9a-f]{40}\?tenant=/);
      const eml = await readFile(path.join(outbox, files.find((f) => f.endsWith('.eml'))!), 'utf8');
      expect(eml).toMatch(/^Subject: Verify your email address for Acme Stores$/m);
      expect(eml).toMatch(/multipart\/alternative/);
    } finally {
      await tp.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('an unreachable mail server does not fail the request; the queued mail is retried until it is delivered', async () => {
    const port = await freePort();
    const tp = await startTestPlatform({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const started = Date.now();
      await tp.install('acme'); // the mail server is down: the signup still succeeds
      await new Promise((r) => setTimeout(r, 500));
      const sink = await startSmtpSink(port);
      try {
        const mail = await sink.waitFor((m) => m.to.includes('ada@acme.example'), 20_000);
        expect(mail.subject).toBe('Verify your email address for Acme Stores');
        expect(Date.now() - started).toBeGreaterThan(1500); // it came by a retry, not the first attempt
      } finally {
        await sink.close();
      }
    } finally {
      await tp.close();
    }
  });
});
