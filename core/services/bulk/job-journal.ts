/**
 * Each queued CSV job is also written beside its upload as `<upload id>.job.json` (the job's data and
 * how many times it has been started) and removed with the upload when the job ends (csv-jobs.ts).
 * On the in-process queue (REDIS_URL unset) a job lives only in memory: a node killed mid-import
 * would forget it and leave the import `processing` for ever, so a node starting up queues again
 * what the journal still holds. On Redis bull keeps the job; the journal (in DATA_DIR, which the
 * nodes share) only counts its starts, so one that keeps killing its node is stopped.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface JournalEntry<T> {
  tenantId: string;
  uploadId: string;
  data: T;
  /** How many times a worker has started this job (0 while it waits for its first run). */
  starts: number;
}

const SUFFIX = '.job.json';

export class JobJournal<T> {
  constructor(private readonly root: string) {}

  private file(tenantId: string, uploadId: string) {
    return path.join(this.root, tenantId, `${uploadId}${SUFFIX}`);
  }

  /** Written whole then renamed: a crash mid-write leaves the previous entry or none, never half of one. */
  async write(entry: JournalEntry<T>): Promise<void> {
    const file = this.file(entry.tenantId, entry.uploadId);
    await fs.promises.writeFile(`${file}.tmp`, JSON.stringify(entry));
    await fs.promises.rename(`${file}.tmp`, file);
  }

  async read(tenantId: string, uploadId: string): Promise<JournalEntry<T> | undefined> {
    try {
      return JSON.parse(await fs.promises.readFile(this.file(tenantId, uploadId), 'utf8')) as JournalEntry<T>;
    } catch {
      return undefined; // none (a job queued before journals existed) or unreadable: run it as is
    }
  }

  async remove(tenantId: string, uploadId: string): Promise<void> {
    await fs.promises.rm(this.file(tenantId, uploadId), { force: true });
  }

  /** Every job left by a node that stopped before finishing it. An unreadable entry is skipped. */
  async list(): Promise<JournalEntry<T>[]> {
    const entries: JournalEntry<T>[] = [];
    for (const tenant of await fs.promises.readdir(this.root).catch(() => [] as string[])) {
      for (const name of await fs.promises.readdir(path.join(this.root, tenant)).catch(() => [] as string[])) {
        if (!name.endsWith(SUFFIX)) continue;
        try {
          entries.push(JSON.parse(await fs.promises.readFile(path.join(this.root, tenant, name), 'utf8')) as JournalEntry<T>);
        } catch {
          /* removed meanwhile or torn: nothing to resume */
        }
      }
    }
    return entries;
  }
}
