/** `documents.render_pdf` (core/services/documents/documents.ts): a PDF the host draws for the calling module; a layout's blocks are sdk/runtime/document-layout.ts. */
import { DocumentLayoutSchema } from '../../runtime/document-layout';
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';
import { JsonObject } from './schemas';

const NAME = '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$';

export const documentsRenderPdf = coreContract({
  name: 'documents.render_pdf',
  description: "Renders a PDF (template layout: the module's blocks; or simple) for the calling module and stores it; returns {path, url, bytes}.",
  public: true,
  input: Type.Object(
    { template: Type.StringEnum(['layout', 'simple']), name: Type.String({ pattern: NAME }), data: JsonObject() },
    {
      additionalProperties: false,
      // A layout's blocks are checked, limits included, before the handler runs.
      if: { properties: { template: { const: 'layout' } } },
      then: { properties: { data: DocumentLayoutSchema } },
    },
  ),
  output: Type.Object({
    path: Type.String({ description: 'documents/<tenant>/<module>/<name>.pdf under DATA_DIR' }),
    url: Type.String({ description: 'GET it with a member token of the tenant' }),
    bytes: Type.Integer({ minimum: 0 }),
  }),
});
