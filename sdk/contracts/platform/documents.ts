/** `documents.render_pdf` (core/documents/documents.ts): a PDF the host lays out for the calling module; the data's types are sdk/runtime/documents.ts. */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';
import { JsonObject } from './schemas';

const NAME = '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$';

export const documentsRenderPdf = coreContract({
  name: 'documents.render_pdf',
  description: 'Renders a PDF (template invoice, statement or simple) for the calling module and stores it; returns {path, url, bytes}.',
  public: true,
  input: Type.Object(
    { template: Type.StringEnum(['invoice', 'statement', 'simple']), name: Type.String({ pattern: NAME }), data: JsonObject() },
    { additionalProperties: false },
  ),
});
