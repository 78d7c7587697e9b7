/**
 * The Content-Type of a module route's answer (route-response.ts, response-stream.ts). Manifests may
 * not declare a type a browser runs as a page (sdk/manifest/active-content.ts); one published before
 * that rule is still served as what it says, but as a download (`Content-Disposition: attachment`),
 * never rendered on the console's origin. A route may also declare its answer a download
 * (`response.disposition: "attachment"`), named by the handler (a user's file keeps its name).
 */
import type { Response } from 'express';
import { isActiveContentType } from '../../../sdk/manifest';

export function setAnswerContentType(res: Response, contentType: string): void {
  res.setHeader('Content-Type', contentType);
  if (isActiveContentType(contentType)) res.setHeader('Content-Disposition', 'attachment');
}

/**
 * `Content-Disposition: attachment`, with the file name when one is given: a plain ASCII `filename`
 * for every client and the exact name as RFC 5987 `filename*` (UTF-8), so no quote, control character
 * or path separator of a user's file name reaches the header.
 */
export function setAttachmentDisposition(res: Response, filename?: string): void {
  if (!filename) {
    res.setHeader('Content-Disposition', 'attachment');
    return;
  }
  const ascii = filename.replace(/[^\x20-\x7e]|["\\/;]/g, '_');
  res.setHeader('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`);
}
