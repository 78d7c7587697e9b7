/**
 * Draws a module's document layout (sdk/runtime/document-layout.ts) with pdfkit on A4 pages. The
 * layout is already checked against its schema by the bus; `layoutWork` adds the limits a schema
 * cannot state (cells and characters over the whole document). Drawing yields to the event loop
 * every few milliseconds, so a long statement never holds the host's other requests for its whole
 * length, and stops at a time budget whatever the layout (pdfkit's cost is not linear in its text:
 * a long unbroken word in a narrow column is split letter by letter).
 */
import { LAYOUT_LIMITS, type DocumentLayout, type LayoutBlock, type LayoutCell, type LayoutColumn, type LayoutLeaf } from '../../../sdk/runtime/document-layout';
import { documentErrors } from './errors';

const LEFT = 40;
const WIDTH = 515;
const BOTTOM = 790;
/** The tallest a grid row grows: a page, less room for the header repeated above it (a longer cell ends in an ellipsis). */
const MAX_ROW = BOTTOM - LEFT - 20;
const RULE = '#999999';
/** Characters over the whole document: the sum of every text, label and cell. */
const MAX_CHARACTERS = 1_000_000;
/** Drawing runs at most this long between two turns of the event loop, and this long in all. */
const SLICE_MS = 25;
const BUDGET_MS = 10_000;

type Doc = PDFKit.PDFDocument;
type Box = { x: number; width: number };

const fontOf = (bold?: boolean, italic?: boolean) => (bold ? (italic ? 'Helvetica-BoldOblique' : 'Helvetica-Bold') : italic ? 'Helvetica-Oblique' : 'Helvetica');
const cellText = (c: LayoutCell | undefined) => (c === undefined ? '' : typeof c === 'string' ? c : c.text);
const cellColor = (c: LayoutCell | undefined) => (c !== undefined && typeof c !== 'string' ? c.color : 'black');

/** Gives the event loop a turn once a slice is spent; refuses to go on past the budget. */
function pacer(budgetMs: number) {
  const started = Date.now();
  let slice = started;
  return async () => {
    const now = Date.now();
    if (now - slice < SLICE_MS) return;
    if (now - started > budgetMs) throw documentErrors.tooLarge(`The layout took more than ${budgetMs / 1000} s to draw; the document was not stored.`, { budget_ms: budgetMs });
    await new Promise<void>((resolve) => setImmediate(resolve));
    slice = Date.now();
  };
}
type Pace = ReturnType<typeof pacer>;

/**
 * The part of a grid cell's text that can show in its row (a row is at most MAX_ROW high, the rest
 * would be cut at the ellipsis): measuring and wrapping the rest would only cost time.
 */
function shown(doc: Doc, text: string, width: number): string {
  if (text.length < 200) return text;
  const average = Math.max(doc.widthOfString(text) / text.length, 0.5);
  const fits = Math.ceil((width * (MAX_ROW / 8) * 1.2) / average);
  return text.length > fits ? text.slice(0, fits) : text;
}

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
    throw documentErrors.tooLarge(`The layout asks for ${cells} table cells and ${characters} characters; a document holds at most ${LAYOUT_LIMITS.cells} cells and ${MAX_CHARACTERS} characters.`, {
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

async function table(doc: Doc, b: Extract<LayoutLeaf, { type: 'table' }>, { x, width }: Box, pace: Pace) {
  const cols: LayoutColumn[] = b.columns;
  const grid = (b.style ?? 'grid') === 'grid';
  const rule = (y: number) => doc.moveTo(x, y).lineTo(x + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
  const row = (given: LayoutCell[], header: boolean) => {
    doc.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    const cells = grid ? given.map((c, i) => (cols[i] ? { text: shown(doc, cellText(c), cols[i]!.width - 4), color: cellColor(c) } : c)) : given;
    // Grid rows grow to their tallest cell; plain rows are one line (a longer cell ends in an ellipsis).
    const height = grid ? Math.min(MAX_ROW, Math.max(...cols.map((c, i) => doc.heightOfString(cellText(cells[i]) || ' ', { width: c.width - 4 }))) + 6) : 13;
    if (doc.y + height > BOTTOM) {
      doc.addPage();
      if (!header) row(cols.map((c) => c.title), true);
    }
    const top = doc.y;
    let left = x;
    cols.forEach((c, i) => {
      const options = { width: c.width - 4, height: grid ? MAX_ROW - 6 : 10, align: c.align ?? 'left', ellipsis: true };
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
  for (const cells of b.rows) {
    row(cells, false);
    await pace();
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

async function leaf(doc: Doc, b: LayoutLeaf, box: Box, pace: Pace) {
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
      await table(doc, b, box, pace);
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

/** Draws the layout's blocks one below the other from the top of the first page, within `budgetMs` of drawing. */
export async function drawLayout(doc: Doc, layout: DocumentLayout, budgetMs = BUDGET_MS) {
  doc.font('Helvetica').fontSize(9);
  const pace = pacer(budgetMs);
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
        for (const inner of column) await leaf(doc, inner, { x: LEFT + i * (width + 10), width }, pace);
        bottom = Math.max(bottom, doc.y);
      }
      doc.x = LEFT;
      doc.y = bottom + 8;
    } else await leaf(doc, b, { x: LEFT, width: WIDTH }, pace);
    await pace();
  }
}
