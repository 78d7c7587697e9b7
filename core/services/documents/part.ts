/** The documents part (core/kernel/parts): PDFs drawn from the layouts modules give, and their core operation and download route. */
import { configRef } from '../../config';
import { routesRef } from '../../kernel/http/routes';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { createDocuments, type Documents } from './documents';

export const documentsRef = partRef<Documents>('documents');

export const documentsPart = definePart({
  ref: documentsRef,
  deps: { config: configRef, kernel: kernelRef, routes: routesRef },
  init: ({ config, kernel, routes }) => {
    const documents = createDocuments({ dataDir: config.dataDir, appUrl: config.appUrl });
    documents.registerOperations(kernel.bus);
    routes.add({ name: 'documents', mount: (api, { authenticated }) => documents.registerRoutes(api, authenticated) });
    return documents;
  },
});
