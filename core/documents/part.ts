/** The documents part (core/parts): PDFs drawn from the layouts modules give, and their core operation and download route. */
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
