/**
 * Draws a module's document layout (sdk/runtime/document-layout.ts) with pdfkit on A4 pages. The
 * layout is already checked against its schema by the bus; `layoutWork` adds the limits a schema
 * cannot state (cells and characters over the whole document). Drawing yields to the event loop
 * every few rows, so a long statement never holds the host's other requests for its whole length.
 */
import { LAYOUT_LIMITS, type DocumentLayout, type LayoutBlock, type LayoutCell, type LayoutColumn, type LayoutLeaf } from '../../sdk/runtime/document-layout';
import { MandiError } from '../errors';

const LEFT = 40;
const WIDTH = 515;
const BOTTOM = 790;
const RULE = '#999999';
/** Characters over the whole document: the sum of every text, label and cell. */
const MAX_CHARACTERS = 400_000;
const YIELD_EVERY = 100;

type Doc = PDFKit.PDFDocument;
type Box = { x: number; width: number };

const fontOf = (bold?: boolean, italic?: boolean) => (bold ? (italic ? 'Helvetica-BoldOblique' : 'Helvetica-Bold') : italic ? 'Helvetica-Oblique' : 'Helvetica');
const cellText = (c: LayoutCell | undefined) => (c === undefined ? '' : typeof c === 'string' ? c : c.text);
const cellColor = (c: LayoutCell | undefined) => (c !== undefined && typeof c !== 'string' ? c.color : 'black');
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

function leaves(blocks: LayoutBlock[]): LayoutLeaf[] {
  return blocks.flatMap((b) => (b.type === 'columns' ? b.columns.flat() : b.type === 'page_break' ? [] : [b]));
}

/** Refuses a layout whose whole asks more than the host draws for one document (DOCUMENT_TOO_LARGE). */
export function layoutWork(layout: DocumentLayout) {
  let cells = 0;
  let characters = 0;
  for (const b of leaves(layout.blocks)) {
    if (b.type === 'heading' || b.type === 'paragraph') characters += b.text.length;
    else if (b.type === 'fields' || b.type === 'totals') for (const r of b.rows) characters += r.label.length + r.value.length;
    else if (b.type === 'table') {
      for (const c of b.columns) characters += c.title.length;
      for (const row of b.rows) {
        cells += row.length;
        for (const c of row) characters += cellText(c).length;
      }
    }
  }
  if (cells > LAYOUT_LIMITS.cells || characters > MAX_CHARACTERS) {
    throw new MandiError('DOCUMENT_TOO_LARGE', `The layout asks for ${cells} table cells and ${characters} characters; a document holds at most ${LAYOUT_LIMITS.cells} cells and ${MAX_CHARACTERS} characters.`, 413, {
      cells, characters, max_cells: LAYOUT_LIMITS.cells, max_characters: MAX_CHARACTERS,
    });
  }
}

function fields(doc: Doc, b: Extract<LayoutLeaf, { type: 'fields' }>, { x, width }: Box) {
  for (const r of b.rows) {
    doc.font('Helvetica-Bold').fontSize(9).fillColor('black').text(`${r.label}: `, x, doc.y, { width, continued: true }).font('Helvetica');
    doc.fillColor(r.color ?? 'black').text(r.value).fillColor('black');
  }
}

async function table(doc: Doc, b: Extract<LayoutLeaf, { type: 'table' }>, { x, width }: Box) {
  const cols: LayoutColumn[] = b.columns;
  const grid = (b.style ?? 'grid') === 'grid';
  const rule = (y: number) => doc.moveTo(x, y).lineTo(x + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
  const row = (cells: LayoutCell[], header: boolean) => {
    doc.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    // Grid rows grow to their tallest cell; plain rows are one line (a longer cell ends in an ellipsis).
    const height = grid ? Math.max(...cols.map((c, i) => doc.heightOfString(cellText(cells[i]) || ' ', { width: c.width - 4 }))) + 6 : 13;
    if (doc.y + height > BOTTOM) {
      doc.addPage();
      if (!header) row(cols.map((c) => c.title), true);
    }
    const top = doc.y;
    let left = x;
    cols.forEach((c, i) => {
      const options = grid ? { width: c.width - 4, align: c.align ?? 'left' } : { width: c.width - 4, height: 10, align: c.align ?? 'left', ellipsis: true };
      doc.fillColor(cellColor(cells[i])).text(cellText(cells[i]), left + (grid ? 2 : 0), top + (grid ? 3 : 0), options);
      left += c.width;
    });
    doc.fillColor('black');
    if (grid || header) rule(top + height - (grid ? 0 : 2));
    doc.x = x;
    doc.y = top + height;
  };
  if (grid) rule(doc.y);
  row(cols.map((c) => c.title), true);
  for (let i = 0; i < b.rows.length; i++) {
    row(b.rows[i]!, false);
    if ((i + 1) % YIELD_EVERY === 0) await pause();
  }
  doc.font('Helvetica').fontSize(9);
}

function totals(doc: Doc, b: Extract<LayoutLeaf, { type: 'totals' }>, { x, width }: Box) {
  for (const r of b.rows) {
    const y = doc.y + (r.bold ? 2 : 0);
    doc.font(fontOf(r.bold)).fontSize(9).fillColor('black').text(r.label, x + width - 235, y, { width: 135 }).text(r.value, x + width - 100, y, { width: 100, align: 'right' }).font('Helvetica');
  }
  doc.x = x;
}

async function leaf(doc: Doc, b: LayoutLeaf, box: Box) {
  const { x, width } = box;
  switch (b.type) {
    case 'heading':
      doc.font('Helvetica-Bold').fontSize(b.size ?? 16).fillColor('black').text(b.text, x, doc.y, { width, align: b.align ?? 'left' });
      break;
    case 'paragraph':
      doc.font(fontOf(b.bold, b.italic)).fontSize(b.size ?? 9).fillColor(b.color ?? 'black').text(b.text, x, doc.y, { width, align: b.align ?? 'left' }).fillColor('black');
      break;
    case 'fields':
      fields(doc, b, box);
      break;
    case 'table':
      await table(doc, b, box);
      break;
    case 'totals':
      totals(doc, b, box);
      break;
    case 'rule':
      doc.moveTo(x, doc.y).lineTo(x + width, doc.y).lineWidth(0.5).strokeColor(RULE).stroke();
      doc.y += 4;
      break;
    case 'space':
      doc.font('Helvetica').fontSize(9).moveDown(b.lines);
      break;
  }
  doc.font('Helvetica').fontSize(9);
}

/** Draws the layout's blocks one below the other from the top of the first page. */
export async function drawLayout(doc: Doc, layout: DocumentLayout) {
  doc.font('Helvetica').fontSize(9);
  let drawn = 0;
  for (const b of layout.blocks) {
    if (b.type === 'page_break') {
      if (b.unless_space === undefined || doc.y > BOTTOM - b.unless_space) doc.addPage();
    } else if (b.type === 'columns') {
      const top = doc.y;
      const width = WIDTH / b.columns.length - 10;
      let bottom = top;
      for (const [i, column] of b.columns.entries()) {
        doc.x = LEFT + i * (width + 10);
        doc.y = top;
        for (const inner of column) await leaf(doc, inner, { x: LEFT + i * (width + 10), width });
        bottom = Math.max(bottom, doc.y);
      }
      doc.x = LEFT;
      doc.y = bottom + 8;
    } else await leaf(doc, b, { x: LEFT, width: WIDTH });
    if (++drawn % YIELD_EVERY === 0) await pause();
  }
}
