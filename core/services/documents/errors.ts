/** Errors of the documents part: a layout more than one document holds, a stored document that cannot be read. */
import { defineErrors } from '../../kernel/errors';

export const documentErrors = defineErrors('documents', {
  tooLarge: {
    code: 'DOCUMENT_TOO_LARGE', status: 413,
    doc: 'A layout within the per-block limits of its schema asks more of the host than one document holds: too many table cells or characters in all, or more than the drawing budget of time. Nothing is stored.',
    message: (what: string, _details: Record<string, number>) => what,
    details: (_what: string, details: Record<string, number>) => ({ ...details }),
  },
  unreadable: {
    code: 'DOCUMENT_UNREADABLE', status: 500,
    doc: 'A stored document could not be read from the data directory.',
    message: () => 'The document could not be read.',
  },
});
