/**
 * The outbox: where mail goes when no SMTP server is configured (SMTP_URL unset). Each message is
 * written as a complete .eml (what a mail server would have received) beside a .json summary that
 * scripts and developers can read without a MIME parser. Both are written under a temporary name
 * and renamed into place, so a reader listing the folder (a script, another node, a test waiting
 * for an invitation) never finds a file half-written.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MailMessage } from './message';

export async function writeToOutbox(dir: string, raw: Buffer, message: MailMessage & { from: string; messageId: string }): Promise<string> {
  await mkdir(dir, { recursive: true });
  // Time first so a directory listing is in sending order; the id keeps names unique across nodes.
  const base = `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.messageId.replace(/[^A-Za-z0-9]+/g, '').slice(0, 24)}`;
  const emlPath = path.join(dir, `${base}.eml`);
  await writeWhole(emlPath, raw);
  const summary = { message_id: message.messageId, from: message.from, to: message.to, subject: message.subject, text: message.text, html: message.html, written_at: new Date().toISOString() };
  await writeWhole(path.join(dir, `${base}.json`), JSON.stringify(summary, null, 2));
  return emlPath;
}

/** Writes beside the target (`.tmp`, which readers skip) and renames: a rename within a folder is atomic. */
async function writeWhole(file: string, data: string | Buffer): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}

/** The outbox's summaries in sending order (none when nothing was sent yet). */
export async function readOutbox(dir: string): Promise<Array<MailMessage & { from: string; written_at: string }>> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  const out = [];
  for (const n of names) {
    const m = JSON.parse(await readFile(path.join(dir, n), 'utf8')) as MailMessage & { from: string; written_at: string };
    out.push(m);
  }
  return out;
}
