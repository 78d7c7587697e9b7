/**
 * Reads an uploaded CSV file as a stream and yields it in bounded chunks of rows, so neither the
 * host nor the module ever holds the whole file. The first record is the header (names trimmed and
 * lower-cased); each row is `[line, cells]` (or `[line, cells, error]`): its line number in the file
 * and its fields in header order. A tuple, not an object keyed by column: every chunk crosses into
 * the sandbox as JSON, and 500 copies of 13 column names were the larger part of that text.
 *
 * `groupBy` keeps consecutive rows sharing that column's (non-empty) value in one chunk, so a module
 * can treat them as one record (an order with several item rows) without state across chunks: a group
 * that would not fit starts the next chunk. Chunks so never pass `chunkSize`, except a single group
 * longer than that, which fills a chunk of its own up to max(chunkSize, MAX_GROUP) rows and is cut there.
 */
import fs from 'node:fs';
import { parse, type Info } from 'csv-parse';

/**
 * [line number in the file (1 is the header) where the record ends, fields in header order, and an
 * error when the record's shape is wrong (a different number of fields than the header)].
 */
export type CsvRow = [line: number, cells: string[]] | [line: number, cells: string[], error: string];

export interface CsvChunk {
  index: number;
  header: string[];
  rows: CsvRow[];
}

/** A group longer than this (and than the chunk size) is cut anyway: a chunk must stay bounded whatever the file holds. */
export const MAX_GROUP = 500;
/** Longest record accepted; a longer one fails the file (csv-parse refuses it). */
const MAX_RECORD_BYTES = 128 * 1024;

function parser(path: string) {
  const stream = fs.createReadStream(path, { highWaterMark: 256 * 1024 });
  const records = stream.pipe(
    parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES, trim: false }),
  );
  // A read error (file removed mid-way) must end the iteration, not hang it.
  stream.on('error', (err) => records.destroy(err));
  return records as AsyncIterable<{ record: string[]; info: Info }>;
}

export const normaliseHeader = (names: string[]) => names.map((n) => n.trim().toLowerCase());

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the data records (header excluded) for a progress total, with a byte scan instead of a
 * second full parse: a record ends at a line feed outside quotes (a doubled quote inside a quoted
 * field toggles twice, so it changes nothing); empty lines are not records, as for the parser.
 */
export async function countCsvRows(path: string): Promise<number> {
  let records = 0;
  let quoted = false;
  let content = false;
  for await (const chunk of fs.createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === QUOTE) quoted = !quoted;
      if (b === LF && !quoted) {
        if (content) records++;
        content = false;
      } else if (b !== CR) content = true;
    }
  }
  if (content) records++;
  return Math.max(0, records - 1);
}

export async function* csvChunks(path: string, opts: { chunkSize: number; groupBy?: string }): AsyncGenerator<CsvChunk> {
  let header: string[] | undefined;
  let groupCol = -1;
  let rows: CsvRow[] = [];
  let index = 0;
  let lastKey: string | undefined;
  // Where the run of rows sharing lastKey begins in `rows`.
  let groupStart = 0;
  const longestGroup = Math.max(opts.chunkSize, MAX_GROUP);
  for await (const { record, info } of parser(path)) {
    if (!header) {
      header = normaliseHeader(record);
      groupCol = opts.groupBy ? header.indexOf(opts.groupBy) : -1;
      continue;
    }
    const row: CsvRow = record.length === header.length ? [info.lines, record] : [info.lines, record, `expected ${header.length} fields as in the header, found ${record.length}`];
    const key = groupCol >= 0 ? (record[groupCol] ?? '').trim() : '';
    const continuesGroup = key !== '' && key === lastKey;
    if (rows.length >= opts.chunkSize) {
      if (!continuesGroup || (groupStart === 0 && rows.length >= longestGroup)) {
        yield { index: index++, header, rows };
        rows = [];
      } else if (groupStart > 0) {
        // The group does not fit: what came before it is a chunk, the group opens the next.
        yield { index: index++, header, rows: rows.slice(0, groupStart) };
        rows = rows.slice(groupStart);
      }
      groupStart = 0;
    }
    if (!continuesGroup || rows.length === 0) groupStart = rows.length;
    rows.push(row);
    lastKey = key;
  }
  if (!header) throw new Error('The file is empty: a CSV header line is needed.');
  if (rows.length || index === 0) yield { index, header, rows };
}
