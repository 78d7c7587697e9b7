/**
 * Spec 3 Bulk operations / Limits (CSV import chunk 500 rows): the host's CSV reader streams a file
 * into bounded chunks, keeps rows of one group (an order) together, and numbers lines as in the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countCsvRows, csvChunks, MAX_GROUP, type CsvChunk } from '../../core/services/bulk/csv-chunks';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-csv-chunks-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(text: string): string {
  const p = path.join(dir, `f${++n}.csv`);
  fs.writeFileSync(p, text);
  return p;
}

async function all(p: string, opts: { chunkSize: number; groupBy?: string }): Promise<CsvChunk[]> {
  const out: CsvChunk[] = [];
  for await (const c of csvChunks(p, opts)) out.push(c);
  return out;
}

describe('spec 3 Bulk operations: CSV chunks', () => {
  it('yields chunks of chunkSize rows with a normalised header and file line numbers (quoted newlines included)', async () => {
    const p = file('\ufeff Order_Number ,Notes\nA,"two\nlines"\nB,x\nC,y\n\nD,z\n');
    const chunks = await all(p, { chunkSize: 2 });
    expect(chunks.map((c) => c.index)).toEqual([0, 1]);
    expect(chunks[0]!.header).toEqual(['order_number', 'notes']);
    expect(chunks[0]!.rows).toEqual([
      [3, ['A', 'two\nlines']],
      [4, ['B', 'x']],
    ]);
    expect(chunks[1]!.rows.map(([line, cells]) => [line, cells[0]])).toEqual([[5, 'C'], [7, 'D']]);
    expect(await countCsvRows(p)).toBe(4);
  });

  it('spec 3 Limits (chunks of 500 rows): keeps consecutive rows of one group in one chunk without passing the chunk size', async () => {
    const rows = ['order_number,item', 'A,1', 'B,1', 'B,2', 'C,1', 'C,2', 'C,3', 'D,1', ',x', ',y', 'E,1'];
    const chunks = await all(file(rows.join('\n')), { chunkSize: 3, groupBy: 'order_number' });
    // B does not fit after A: it opens the next chunk. C alone fills one. Rows without a key never group.
    expect(chunks.map((c) => c.rows.map(([, cells]) => cells.join('')))).toEqual([['A1', 'B1', 'B2'], ['C1', 'C2', 'C3'], ['D1', 'x', 'y'], ['E1']]);
    const split = await all(file(['order_number,item', 'A,1', 'A,2', 'B,1', 'B,2'].join('\n')), { chunkSize: 3, groupBy: 'order_number' });
    expect(split.map((c) => c.rows.map(([, cells]) => cells.join('')))).toEqual([['A1', 'A2'], ['B1', 'B2']]);
    // Only a single group longer than the chunk size makes a longer chunk, and it is cut at MAX_GROUP.
    const long = await all(file(['order_number,item', 'A,1', 'B,1', 'B,2', 'B,3', 'B,4', 'C,1'].join('\n')), { chunkSize: 2, groupBy: 'order_number' });
    expect(long.map((c) => c.rows.length)).toEqual([1, 4, 1]);
    const huge = ['order_number,item', ...Array.from({ length: 2 * MAX_GROUP + 5 }, (_, i) => `G,${i}`)];
    const bounded = await all(file(huge.join('\n')), { chunkSize: 10, groupBy: 'order_number' });
    expect(bounded.map((c) => c.rows.length)).toEqual([MAX_GROUP, MAX_GROUP, 5]);
    const at500 = await all(file(['order_number,item', ...Array.from({ length: 1200 }, (_, i) => `O${Math.floor(i / 3)},${i}`)].join('\n')), { chunkSize: 500, groupBy: 'order_number' });
    expect(Math.max(...at500.map((c) => c.rows.length))).toBeLessThanOrEqual(500);
    expect(at500.flatMap((c) => c.rows).length).toBe(1200);
  });

  it('marks rows whose field count differs from the header, without stopping', async () => {
    const chunks = await all(file('a,b\n1,2\n3\n4,5,6\n'), { chunkSize: 10 });
    expect(chunks[0]!.rows.map((r) => r[2] ?? null)).toEqual([null, 'expected 2 fields as in the header, found 1', 'expected 2 fields as in the header, found 3']);
  });

  it('fails a malformed or empty file with a message naming the problem', async () => {
    await expect(all(file('a,b\n1,"open\n'), { chunkSize: 10 })).rejects.toThrow(/quote/i);
    await expect(all(file(''), { chunkSize: 10 })).rejects.toThrow(/empty/);
  });
});
