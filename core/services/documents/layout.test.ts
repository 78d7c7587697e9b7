/** The host's drawing of a module's layout: the blocks' words as given, a long table's header on every page, the whole-document limits. */
import PDFDocument from 'pdfkit';
import PDFParser from 'pdf2json';
import { LAYOUT_LIMITS, type DocumentLayout } from '../../../sdk/runtime/document-layout';
import { drawLayout, layoutWork } from './layout';

async function drawnText(layout: DocumentLayout): Promise<string[]> {
  const doc = new PDFDocument({ size: 'A4', margin: 40 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.on('end', resolve));
  await drawLayout(doc, layout);
  doc.end();
  await ended;
  const parser = new PDFParser(null, true);
  const text = await new Promise<string>((resolve, reject) => {
    parser.on('pdfParser_dataError', (e) => reject('parserError' in e ? e.parserError : e));
    parser.on('pdfParser_dataReady', () => resolve(parser.getRawTextContent().replace(/\r\n/g, '\n')));
    // A buffer of its own (Buffer.concat may hand out a slice of the shared pool, which pdf2json reads whole).
    const bytes = Buffer.alloc(chunks.reduce((n, c) => n + c.length, 0));
    Buffer.concat(chunks).copy(bytes);
    parser.parseBuffer(bytes);
  });
  return text.split(/-+Page \(\d+\) Break-+/).filter((page) => page.trim());
}

describe('core/services/documents: drawing a layout', () => {
  it('draws each block with the words the module gave, columns side by side, a totals row apart', async () => {
    const [page] = await drawnText({
      blocks: [
        { type: 'heading', text: 'STATEMENT OF WORK', align: 'center' },
        { type: 'columns', columns: [[{ type: 'paragraph', text: 'Left party', bold: true }], [{ type: 'fields', rows: [{ label: 'Number', value: 'SOW-7' }, { label: 'Due', value: 'not given', color: '#b91c1c' }] }]] },
        { type: 'totals', rows: [{ label: 'Subtotal', value: '10.00' }, { label: 'Total', value: '11.80', bold: true }] },
        { type: 'rule' },
        { type: 'space', lines: 1 },
        { type: 'paragraph', text: 'Thank you', italic: true, align: 'right' },
      ],
    });
    for (const s of ['STATEMENT OF WORK', 'Left party', 'Number: SOW-7', 'Due: not given', 'Subtotal', '11.80', 'Thank you']) expect(page).toContain(s);
  });

  it('repeats a long table\'s header at the top of every page it runs onto, and breaks a page only when asked', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => [`row ${i}`, { text: `${i}.00`, color: '#555555' }]);
    const pages = await drawnText({
      blocks: [
        { type: 'table', style: 'plain', columns: [{ title: 'Item', width: 200 }, { title: 'Amount', width: 100, align: 'right' }], rows },
        { type: 'page_break', unless_space: 10 },
        { type: 'paragraph', text: 'after the table' },
        { type: 'page_break' },
        { type: 'paragraph', text: 'last page' },
      ],
    });
    // 150 one-line rows fill three pages; room is left after them, so only the unconditional break starts a fourth.
    expect(pages).toHaveLength(4);
    for (const page of pages.slice(0, 3)) expect(page).toMatch(/Item\s+Amount/);
    expect(pages[2]).toContain('row 149');
    expect(pages[2]).toContain('after the table');
    expect(pages[3]!.trim()).toBe('last page');
  });

  it('refuses a document whose tables hold more cells than a document does, each table within its own limits', () => {
    const table = { type: 'table' as const, columns: [{ title: 'a', width: 50 }], rows: Array.from({ length: LAYOUT_LIMITS.rows }, () => ['x']) };
    expect(() => layoutWork({ blocks: Array.from({ length: LAYOUT_LIMITS.cells / LAYOUT_LIMITS.rows }, () => table) })).not.toThrow();
    expect(() => layoutWork({ blocks: Array.from({ length: LAYOUT_LIMITS.cells / LAYOUT_LIMITS.rows + 1 }, () => table) })).toThrow(expect.objectContaining({ code: 'DOCUMENT_TOO_LARGE', status: 413 }));
  });

  it('stops a drawing past its time budget with DOCUMENT_TOO_LARGE', async () => {
    const doc = new PDFDocument({ size: 'A4', margin: 40 });
    doc.resume();
    const rows = Array.from({ length: 300 }, () => ['x'.repeat(LAYOUT_LIMITS.cell)]);
    await expect(drawLayout(doc, { blocks: [{ type: 'table', columns: [{ title: 'n', width: 12 }], rows }] }, 0)).rejects.toMatchObject({ code: 'DOCUMENT_TOO_LARGE', status: 413 });
    doc.end();
  });
});
