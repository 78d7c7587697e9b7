/**
 * The Content-Type of a module route's answer (route-response.ts, response-stream.ts). Manifests may
 * not declare a type a browser runs as a page (sdk/manifest/active-content.ts); one published before
 * that rule is still served as what it says, but as a download (`Content-Disposition: attachment`),
 * never rendered on the console's origin.
 */
import type { Response } from 'express';
import { isActiveContentType } from '../../sdk/manifest';

export function setAnswerContentType(res: Response, contentType: string): void {
  res.setHeader('Content-Type', contentType);
  if (isActiveContentType(contentType)) res.setHeader('Content-Disposition', 'attachment');
}
