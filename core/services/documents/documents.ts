/**
 * Documents: PDFs rendered for modules. Module code runs without Node (no pdfkit in the sandbox),
 * so the host offers the public bus operation `documents.render_pdf` {template, name, data}: it lays
 * out the document with pdfkit, stores it under <DATA_DIR>/documents/<tenant>/<module>/ and returns
 * {path, url, bytes}; `GET /api/v1/documents/<module>/<file>` (authenticated, the tenant's own files
 * only) downloads it. Templates: "layout" (the data is the module's own document as a list of
 * blocks, sdk's DocumentLayout, drawn by ./layout.ts: what the document says is the module's
 * business, how blocks are drawn the host's) and "simple" (title + key/value lines).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import PDFDocument from 'pdfkit';
import { documentsRenderPdf } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { currentContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import type { DocumentLayout } from '../../../sdk/runtime/document-layout';
import { documentErrors } from './errors';
import { drawLayout, layoutWork } from './layout';

const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.pdf$/;
const ALIAS = /^[a-z][a-z0-9_]{1,49}$/;

type SimpleData = { title?: string; fields?: Record<string, unknown> };
type RenderInput = { template: 'layout'; name: string; data: DocumentLayout } | { template: 'simple'; name: string; data: SimpleData };

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export function createDocuments(deps: { dataDir: string; appUrl: string }) {
  const root = path.join(deps.dataDir, 'documents');

  async function render(tenantId: string, owner: string, input: RenderInput) {
    if (input.template === 'layout') layoutWork(input.data);
    const dir = path.join(root, tenantId, owner);
    await mkdir(dir, { recursive: true });
    const file = `${input.name}-${randomBytes(6).toString('hex')}.pdf`;
    const full = path.join(dir, file);
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: input.name } });
    const out = createWriteStream(full);
    const written = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
      doc.on('error', reject);
    });
    doc.pipe(out);
    try {
      if (input.template === 'layout') await drawLayout(doc, input.data);
      else {
        doc.fontSize(16).text(text(input.data.title) || input.name).moveDown().fontSize(10);
        for (const [k, v] of Object.entries(input.data.fields ?? {})) doc.text(`${k}: ${text(v)}`);
      }
    } catch (err) {
      // A document refused half-way (its drawing budget spent) leaves no file behind.
      doc.end();
      await written.catch(() => undefined);
      await rm(full, { force: true });
      throw err;
    }
    doc.end();
    await written;
    const rel = path.posix.join('documents', tenantId, owner, file);
    return { path: rel, url: `${deps.appUrl}/api/v1/documents/${owner}/${file}`, bytes: (await stat(full)).size };
  }

  return {
    root,
    render,
    registerOperations(bus: Bus) {
      bus.registerCore(defineCoreOperation(documentsRenderPdf, async (input, ctx, caller) => {
        const owner = caller.kind === 'module' ? caller.alias : 'core';
        // The contract's schema has checked the data against the template (a layout's blocks and limits).
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
          res.sendFile(full, (err) => (err ? reject(documentErrors.unreadable()) : resolve())),
        );
      });
    },
  };
}

export type Documents = ReturnType<typeof createDocuments>;
