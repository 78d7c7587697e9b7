/**
 * Documents: PDFs rendered for modules. Module code runs without Node (no pdfkit in the sandbox),
 * so the host offers the public bus operation `documents.render_pdf` {template, name, data}: it lays
 * out the document with pdfkit, stores it under <DATA_DIR>/documents/<tenant>/<module>/ and returns
 * {path, url, bytes}; `GET /api/v1/documents/<module>/<file>` (authenticated, the tenant's own files
 * only) downloads it. Templates: "invoice" (tax invoice, credit note, proforma) and "simple"
 * (title + key/value lines).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import PDFDocument from 'pdfkit';
import type { Bus } from '../bus/bus';
import { currentContext } from '../context';
import { MandiError, notFound } from '../errors';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.pdf$/;
const ALIAS = /^[a-z][a-z0-9_]{1,49}$/;

type Line = Record<string, unknown>;
interface InvoiceData {
  title?: string; number?: string; order_number?: string; issued_at?: string; due_at?: string; billing_name?: string | null; billing_gstin?: string | null;
  currency?: string; line_items?: Line[]; subtotal?: string; discount?: string; tax_details?: Record<string, unknown>; total_tax?: string; total?: string; reason?: string | null;
  fields?: Record<string, unknown>;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function layoutInvoice(doc: PDFKit.PDFDocument, d: InvoiceData) {
  doc.fontSize(18).text(text(d.title) || 'Invoice', { align: 'left' });
  doc.moveDown(0.5).fontSize(10);
  for (const [k, v] of [['Number', d.number], ['Order', d.order_number], ['Issued', d.issued_at], ['Due', d.due_at], ['Bill to', d.billing_name], ['GSTIN', d.billing_gstin], ['Reason', d.reason]] as const) {
    if (v) doc.text(`${k}: ${text(v)}`);
  }
  doc.moveDown();
  const cols = [50, 250, 300, 370, 430, 490];
  const y0 = doc.y;
  ['Item', 'Qty', 'Price', 'Taxable', 'Tax', 'Total'].forEach((h, i) => doc.text(h, cols[i], y0, { width: i === 0 ? 195 : 60 }));
  doc.moveDown(0.5);
  for (const l of d.line_items ?? []) {
    const y = doc.y;
    const tax = text(l.tax_total ?? l.cgst);
    [text(l.name), text(l.quantity), text(l.unit_price), text(l.taxable_amount), tax, text(l.total)].forEach((c, i) => doc.text(c, cols[i], y, { width: i === 0 ? 195 : 60 }));
    doc.moveDown(0.3);
    if (doc.y > 720) doc.addPage();
  }
  doc.moveDown().x = 50;
  const t = d.tax_details ?? {};
  const cur = text(d.currency);
  for (const [k, v] of [['Subtotal', d.subtotal], ['Discount', d.discount], ['CGST', t.cgst], ['SGST', t.sgst], ['IGST', t.igst], ['Total tax', d.total_tax], ['Total', d.total]] as const) {
    if (v !== undefined && v !== null) doc.text(`${k}: ${cur} ${text(v)}`, 50, doc.y, { align: 'right' });
  }
  for (const [k, v] of Object.entries(d.fields ?? {})) doc.text(`${k}: ${text(v)}`);
}

export function createDocuments(deps: { dataDir: string; appUrl: string }) {
  const root = path.join(deps.dataDir, 'documents');

  async function render(tenantId: string, owner: string, input: { template: string; name: string; data: InvoiceData }) {
    const dir = path.join(root, tenantId, owner);
    await mkdir(dir, { recursive: true });
    const file = `${input.name}-${randomBytes(6).toString('hex')}.pdf`;
    const full = path.join(dir, file);
    await new Promise<void>((resolve, reject) => {
      const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: text(input.data.title || input.name) } });
      const out = createWriteStream(full);
      out.on('finish', resolve);
      out.on('error', reject);
      doc.on('error', reject);
      doc.pipe(out);
      if (input.template === 'invoice') layoutInvoice(doc, input.data);
      else {
        doc.fontSize(16).text(text(input.data.title) || input.name).moveDown().fontSize(10);
        for (const [k, v] of Object.entries(input.data.fields ?? {})) doc.text(`${k}: ${text(v)}`);
      }
      doc.end();
    });
    const rel = path.posix.join('documents', tenantId, owner, file);
    return { path: rel, url: `${deps.appUrl}/api/v1/documents/${owner}/${file}`, bytes: (await stat(full)).size };
  }

  return {
    root,
    render,
    registerOperations(bus: Bus) {
      bus.registerCore({
        name: 'documents.render_pdf',
        description: 'Renders a PDF (template invoice or simple) for the calling module and stores it; returns {path, url, bytes}.',
        public: true,
        input: {
          type: 'object',
          additionalProperties: false,
          required: ['template', 'name', 'data'],
          properties: { template: { type: 'string', enum: ['invoice', 'simple'] }, name: { type: 'string', pattern: NAME.source }, data: { type: 'object' } },
        },
        handler: async (input: { template: string; name: string; data: InvoiceData }, ctx, caller) => {
          const owner = caller.kind === 'module' ? caller.alias : 'core';
          return render(ctx.tenantId, owner, input);
        },
      });
    },
    registerRoutes(api: Router, authenticated: RequestHandler) {
      api.get('/documents/:owner/:file', authenticated, async (req, res) => {
        const ctx = currentContext()!;
        const { owner, file } = req.params as { owner: string; file: string };
        if (!(ALIAS.test(owner) || owner === 'core') || !FILE.test(file)) throw notFound('Document not found.');
        const full = path.join(root, ctx.tenant!.id, owner, file);
        const info = await stat(full).catch(() => null);
        if (!info?.isFile()) throw notFound('Document not found.');
        res.type('application/pdf');
        res.setHeader('Content-Disposition', `inline; filename="${file}"`);
        await new Promise<void>((resolve, reject) =>
          res.sendFile(full, (err) => (err ? reject(new MandiError('DOCUMENT_UNREADABLE', 'The document could not be read.', 500)) : resolve())),
        );
      });
    },
  };
}

export type Documents = ReturnType<typeof createDocuments>;
