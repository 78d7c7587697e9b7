/**
 * The outbox (./outbox.ts) is read while mail is being written (scripts, other nodes, the test host
 * waiting for an invitation): a reader must only ever find whole messages.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readOutbox, writeToOutbox } from './outbox';

describe('mail outbox: readers never see a half-written message', () => {
  it('reads only complete summaries while 40 large messages are being written', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mandi-outbox-'));
    try {
      const html = `<p>${'x'.repeat(2_000_000)}</p>`;
      let writing = true;
      const writes = Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          writeToOutbox(dir, Buffer.from(html), { to: `u${i}@example.com`, subject: `s${i}`, text: 't', html, from: 'f@example.com', messageId: `<m${i}@example.com>` }),
        ),
      ).finally(() => (writing = false));
      let reads = 0;
      while (writing) {
        for (const m of await readOutbox(dir)) expect(m.html).toBe(html);
        reads++;
      }
      await writes;
      expect(reads).toBeGreaterThan(0);
      expect((await readOutbox(dir)).map((m) => m.subject).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `s${i}`).sort());
      // Nothing temporary is left behind.
      expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
