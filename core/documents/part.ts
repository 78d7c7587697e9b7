/** The documents part (core/parts): rendered documents (GST invoices) and their core operations. */
import { configRef } from '../config';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { createDocuments, type Documents } from './documents';

export const documentsRef = partRef<Documents>('documents');

export const documentsPart = definePart({
  ref: documentsRef,
  deps: { config: configRef, kernel: kernelRef },
  init: ({ config, kernel }) => {
    const documents = createDocuments({ dataDir: config.dataDir, appUrl: config.appUrl });
    documents.registerOperations(kernel.bus);
    return documents;
  },
});
