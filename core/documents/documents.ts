/**
 * Documents: PDFs rendered for modules. Module code runs without Node (no pdfkit in the sandbox),
 * so the host offers the public bus operation `documents.render_pdf` {template, name, data}: it lays
 * out the document with pdfkit, stores it under <DATA_DIR>/documents/<tenant>/<module>/ and returns
 * {path, url, bytes}; `GET /api/v1/documents/<module>/<file>` (authenticated, the tenant's own files
 * only) downloads it. Templates: "invoice" (GST tax invoice, credit note, proforma: the data is
 * sdk's InvoiceDocument, laid out by ./gst-invoice.ts), "statement" (a wallet statement: sdk's
 * StatementDocument, laid out by ./statement-pdf.ts) and "simple" (title + key/value lines).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import PDFDocument from 'pdfkit';
import { documentsRenderPdf } from '../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import { currentContext } from '../context';
import { MandiError, notFound } from '../errors';
import type { InvoiceDocument, StatementDocument } from '../../sdk';
import { layoutGstInvoice } from './gst-invoice';
import { layoutStatement } from './statement-pdf';

const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.pdf$/;
const ALIAS = /^[a-z][a-z0-9_]{1,49}$/;

type SimpleData = { title?: string; fields?: Record<string, unknown> };
type RenderInput = { template: 'invoice'; name: string; data: InvoiceDocument } | { template: 'statement'; name: string; data: StatementDocument } | { template: 'simple'; name: string; data: SimpleData };

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The invoice data's outline, checked before pdfkit meets it (the details are the module's). */
function checkInvoice(d: Partial<InvoiceDocument>) {
  const missing = (['kind', 'number', 'issued_at', 'currency', 'buyer', 'lines', 'totals'] as const).filter((k) => d[k] === undefined || d[k] === null);
  if (missing.length || !Array.isArray(d.lines) || !['tax_invoice', 'credit_note', 'proforma'].includes(String(d.kind))) {
    throw new MandiError('DOCUMENT_INVALID', `The invoice data is incomplete${missing.length ? `: ${missing.join(', ')} missing` : ''}.`, 422, { missing });
  }
}

/** The statement data's outline, checked before pdfkit meets it. */
function checkStatement(d: Partial<StatementDocument>) {
  const missing = (['account_holder', 'account_id', 'currency', 'from', 'to', 'generated_at', 'opening_balance', 'credits_total', 'debits_total', 'closing_balance', 'lines'] as const).filter((k) => d[k] === undefined || d[k] === null);
  if (missing.length || !Array.isArray(d.lines)) {
    throw new MandiError('DOCUMENT_INVALID', `The statement data is incomplete${missing.length ? `: ${missing.join(', ')} missing` : ''}.`, 422, { missing });
  }
}

export function createDocuments(deps: { dataDir: string; appUrl: string }) {
  const root = path.join(deps.dataDir, 'documents');

  async function render(tenantId: string, owner: string, input: RenderInput) {
    if (input.template === 'invoice') checkInvoice(input.data);
    if (input.template === 'statement') checkStatement(input.data);
    const dir = path.join(root, tenantId, owner);
    await mkdir(dir, { recursive: true });
    const file = `${input.name}-${randomBytes(6).toString('hex')}.pdf`;
    const full = path.join(dir, file);
    await new Promise<void>((resolve, reject) => {
      const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: input.name } });
      const out = createWriteStream(full);
      out.on('finish', resolve);
      out.on('error', reject);
      doc.on('error', reject);
      doc.pipe(out);
      if (input.template === 'invoice') layoutGstInvoice(doc, input.data);
      else if (input.template === 'statement') layoutStatement(doc, input.data);
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
      bus.registerCore(defineCoreOperation(documentsRenderPdf, async (input, ctx, caller) => {
        const owner = caller.kind === 'module' ? caller.alias : 'core';
        // The schema takes any data object; render checks the outline its template needs (checkInvoice, checkStatement).
        return render(ctx.tenantId, owner, input as RenderInput);
      }));
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
