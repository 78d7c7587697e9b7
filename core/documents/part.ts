/** The documents part (core/parts): rendered documents (GST invoices) and their core operations. */
import { platformPart } from '../parts/platform-parts';
import { createDocuments } from './documents';

export const documentsPart = platformPart({
  id: 'documents',
  deps: ['config', 'kernel'],
  init: ({ config, kernel }) => {
    const documents = createDocuments({ dataDir: config.dataDir, appUrl: config.appUrl });
    documents.registerOperations(kernel.bus);
    return documents;
  },
});
