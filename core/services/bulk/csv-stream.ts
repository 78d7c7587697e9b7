/**
 * Manifest routes with `stream: {format: "csv"}` (spec 3 POST /orders/bulk/export: streamed CSV,
 * export timeout 300 s, up to 2 workers). The host pages through the module's page operation with a
 * cursor and writes each page to the response with csv-stringify as it arrives, waiting for the
 * client to drain before asking for the next page: the rows are never all in memory, neither in the
 * host nor in the sandbox.
 *
 * Page operation contract: input = the route input + `cursor` (null first) →
 *   {columns: string[], rows: unknown[][] (cells in column order), next_cursor: string | null, filename?}
 * The first page is fetched before anything is written, so bad input (an unknown column) is a normal
 * JSON error. Later failures, the timeout or a client gone away cut the response off (the client
 * sees an incomplete chunked body, never a silently short file). At most `concurrency` streams of a
 * route run at once on a node; more get 429.
 */
import type { Response } from 'express';
import { stringify, type Stringifier } from 'csv-stringify';
import type { RouteStream } from '../../../sdk/manifest/manifest.types';
import { RateLimitedError } from '../../kernel/errors';
import { bulkErrors } from './errors';
import type { Logger } from '../../kernel/logger';
import type { FetchPage } from '../../kernel/modules/file-transfers';

export interface Page {
  columns: string[];
  rows: unknown[][];
  next_cursor: string | null;
  filename?: string;
}


const DEFAULT_TIMEOUT_S = 300;
const DEFAULT_CONCURRENCY = 2;

function checkPage(value: unknown): Page {
  const p = value as Page;
  const ok =
    p && typeof p === 'object' && Array.isArray(p.columns) && p.columns.every((c) => typeof c === 'string') &&
    Array.isArray(p.rows) && p.rows.every(Array.isArray) && (p.next_cursor === null || typeof p.next_cursor === 'string');
  if (!ok) throw bulkErrors.badPage();
  return p;
}

/** Spreadsheet apps run cells that start with = + - @ as formulas; such text gets a leading quote. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /^[=+\-@\t\r]/.test(text) && !/^[-+]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

const safeFilename = (name: string | undefined) => (name ?? 'export.csv').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'export.csv';

/** Writes a row; when the buffer is full, waits for the client to drain it (or to go away). */
function write(out: Stringifier, res: Response, row: string[]): Promise<void> {
  if (out.write(row)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      res.off('close', done);
      resolve();
    };
    out.once('drain', done);
    res.once('close', done);
  });
}

export class CsvStreams {
  private readonly active = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  async serve(res: Response, key: string, spec: RouteStream, fetchPage: FetchPage): Promise<void> {
    const limit = spec.concurrency ?? DEFAULT_CONCURRENCY;
    const running = this.active.get(key) ?? 0;
    if (running >= limit) throw new RateLimitedError(5, `${limit} exports are already running on this server; try again shortly.`);
    this.active.set(key, running + 1);
    try {
      await this.run(res, spec, fetchPage);
    } finally {
      this.active.set(key, (this.active.get(key) ?? 1) - 1);
    }
  }

  private async run(res: Response, spec: RouteStream, fetchPage: FetchPage): Promise<void> {
    const timeoutS = spec.timeout_s ?? DEFAULT_TIMEOUT_S;
    const deadline = Date.now() + timeoutS * 1000;
    let page = checkPage(await fetchPage(null));
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${safeFilename(page.filename)}"`);
    res.setHeader('Cache-Control', 'no-store');
    const out = stringify({ header: true, columns: page.columns });
    out.pipe(res);
    let gone = false;
    res.on('close', () => (gone = !res.writableFinished));
    try {
      for (;;) {
        for (const row of page.rows) {
          if (gone) return void out.destroy();
          await write(out, res, row.map(cell));
        }
        if (page.next_cursor === null) break;
        if (Date.now() > deadline) throw new Error(`the export ran longer than ${timeoutS} s`);
        page = checkPage(await fetchPage(page.next_cursor));
      }
      await new Promise<void>((resolve) => {
        res.once('finish', resolve);
        res.once('close', resolve);
        out.end();
      });
    } catch (err) {
      this.logger.warn({ err }, 'CSV stream cut off');
      out.unpipe(res);
      res.destroy(err as Error);
    }
  }
}
