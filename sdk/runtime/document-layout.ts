/**
 * A document layout: what a module hands the host's `documents.render_pdf` (template "layout") to
 * get a PDF. Module code has no pdfkit, so it describes the document as a list of blocks and the
 * host draws them on A4 pages (core/services/documents/layout.ts). The blocks know nothing of what the
 * document is (an invoice, a statement): the module puts every word and figure in them.
 *
 * The schema is the operation's input check, and its limits bound the work any module can ask of
 * the host: so many blocks, rows and characters, then a refusal (VALIDATION_FAILED) before pdfkit
 * starts. Sizes are PDF points; the page's writable width is 515 (A4, 40 point margins), text is
 * Helvetica at 9 points unless a block says otherwise.
 */
import type { Static, TLiteral, TObject, TProperties, TUnsafe } from '@sinclair/typebox/type';
import * as T from './schema';

/** The limits the schema enforces: the most one document may ask of the host. */
export const LAYOUT_LIMITS = { blocks: 500, columnBlocks: 80, columns: 4, text: 2000, label: 200, cell: 1000, tableColumns: 16, rows: 10_000, fieldRows: 60, totalsRows: 40, cells: 100_000 } as const;

const Text = (max: number) => T.String({ maxLength: max });
const Color = T.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'Text colour, #rrggbb (black when absent).' });
const Align = T.StringEnum(['left', 'center', 'right'] as const);
const Style = { size: T.Optional(T.Number({ minimum: 6, maximum: 28 })), bold: T.Optional(T.Boolean()), italic: T.Optional(T.Boolean()), color: T.Optional(Color) };

const Heading = T.Object({ type: T.Literal('heading'), text: Text(LAYOUT_LIMITS.label), align: T.Optional(Align), size: T.Optional(T.Number({ minimum: 6, maximum: 28 })) }, { additionalProperties: false });
const Paragraph = T.Object({ type: T.Literal('paragraph'), text: Text(LAYOUT_LIMITS.text), align: T.Optional(Align), ...Style }, { additionalProperties: false });
/** "Label: value" lines, the label in bold; a value may have its own colour (say, for a particular that is missing). */
const Fields = T.Object({
  type: T.Literal('fields'),
  rows: T.Array(T.Object({ label: Text(LAYOUT_LIMITS.label), value: Text(LAYOUT_LIMITS.text), color: T.Optional(Color) }, { additionalProperties: false }), { maxItems: LAYOUT_LIMITS.fieldRows }),
}, { additionalProperties: false });
const Cell = T.Union([Text(LAYOUT_LIMITS.cell), T.Object({ text: Text(LAYOUT_LIMITS.cell), color: Color }, { additionalProperties: false })]);
/**
 * A table: its header is repeated at the top of every page it runs onto. "grid" rows wrap their
 * cells and are ruled; "plain" rows are one line high, a longer cell cut with an ellipsis.
 */
const Table = T.Object({
  type: T.Literal('table'),
  style: T.Optional(T.StringEnum(['grid', 'plain'] as const)),
  columns: T.Array(T.Object({ title: Text(LAYOUT_LIMITS.label), width: T.Number({ minimum: 12, maximum: 515 }), align: T.Optional(Align) }, { additionalProperties: false }), { minItems: 1, maxItems: LAYOUT_LIMITS.tableColumns }),
  rows: T.Array(T.Array(Cell, { maxItems: LAYOUT_LIMITS.tableColumns }), { maxItems: LAYOUT_LIMITS.rows }),
}, { additionalProperties: false });
/** Totals: label and amount pairs on the right half of the page; a bold row (a grand total) stands a little apart. */
const Totals = T.Object({
  type: T.Literal('totals'),
  rows: T.Array(T.Object({ label: Text(LAYOUT_LIMITS.label), value: Text(LAYOUT_LIMITS.label), bold: T.Optional(T.Boolean()) }, { additionalProperties: false }), { maxItems: LAYOUT_LIMITS.totalsRows }),
}, { additionalProperties: false });
const Rule = T.Object({ type: T.Literal('rule') }, { additionalProperties: false });
/** Vertical space, in lines of 9 point text. */
const Space = T.Object({ type: T.Literal('space'), lines: T.Number({ minimum: 0, maximum: 20 }) }, { additionalProperties: false });
/** A new page; with `unless_space`, only when less than that many points are left on this one (keeps what follows together). */
const PageBreak = T.Object({ type: T.Literal('page_break'), unless_space: T.Optional(T.Integer({ minimum: 1, maximum: 760 })) }, { additionalProperties: false });

/**
 * One of the block variants, chosen by its `type` (a JSON Schema if/then per variant, where a
 * plain anyOf would answer a wrong block with every other variant's complaints too).
 */
function Tagged<V extends TObject<TProperties & { type: TLiteral<string> }>>(variants: V[]): TUnsafe<Static<V>> {
  const tags = variants.map((v) => v.properties.type.const);
  return T.Unsafe<Static<V>>({
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', enum: tags } },
    allOf: variants.map((v) => ({ if: { properties: { type: { const: v.properties.type.const } } }, then: v })),
  });
}

const Leaf = Tagged([Heading, Paragraph, Fields, Table, Totals, Rule, Space]);
/** Blocks side by side from the same top, each column as wide as the page allows; the page continues below the tallest. */
const Columns = T.Object({
  type: T.Literal('columns'),
  columns: T.Array(T.Array(Leaf, { maxItems: LAYOUT_LIMITS.columnBlocks }), { minItems: 1, maxItems: LAYOUT_LIMITS.columns }),
}, { additionalProperties: false });

export const DocumentLayoutSchema = T.Object({ blocks: T.Array(Tagged([Heading, Paragraph, Fields, Table, Totals, Rule, Space, Columns, PageBreak]), { maxItems: LAYOUT_LIMITS.blocks }) }, { additionalProperties: false });

export type DocumentLayout = Static<typeof DocumentLayoutSchema>;
export type LayoutBlock = DocumentLayout['blocks'][number];
export type LayoutLeaf = Static<typeof Leaf>;
export type LayoutCell = Static<typeof Cell>;
export type LayoutColumn = Static<typeof Table>['columns'][number];
