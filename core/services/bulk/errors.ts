/** Errors of uploads and bulk files (spec 1, Bulk operations; DESIGN.md, Host capabilities for modules). */
import { defineErrors } from '../../kernel/errors';

export const bulkErrors = defineErrors('bulk', {
  fileTooLarge: {
    code: 'PAYLOAD_TOO_LARGE', status: 413,
    message: (max: number) => `The file is larger than the limit of ${max} bytes.`,
    details: (max: number) => ({ max_bytes: max }),
  },
  notMultipart: {
    code: 'UNSUPPORTED_MEDIA_TYPE', status: 415,
    doc: 'The body is not of a type the route takes (an upload route takes multipart/form-data with the file in its field, of the types it accepts).',
    message: (field: string) => `This route takes multipart/form-data with the file in the field "${field}".`,
  },
  fileType: {
    code: 'UNSUPPORTED_MEDIA_TYPE', status: 415,
    doc: 'The body is not of a type the route takes (an upload route takes multipart/form-data with the file in its field, of the types it accepts).',
    message: (accept: string[], type: string) => `The file must be of type ${accept.join(' or ')}, not ${type}.`,
    details: (accept: string[]) => ({ accept }),
  },
  unreadable: {
    code: 'BAD_REQUEST', status: 400,
    message: (reason: string) => `The multipart body cannot be read: ${reason}.`,
  },
  uploadMissing: {
    code: 'UPLOAD_NOT_FOUND', status: 404,
    doc: 'No upload of that id in this tenant: it never existed or has expired.',
    message: (id: string) => `Upload ${id} does not exist (or has expired).`,
    details: (id: string) => ({ upload_id: id }),
  },
  otherModulesUpload: {
    code: 'FORBIDDEN', status: 403,
    message: (id: string) => `Upload ${id} was received by another module.`,
    details: (id: string) => ({ upload_id: id }),
  },
  unknownOperation: {
    code: 'VALIDATION_FAILED', status: 422,
    message: (operation: string) => `Unknown operation "${operation}".`,
    details: () => ({ errors: { operation: ['unknown operation'] } }),
  },
  badPage: {
    code: 'BAD_PAGE', status: 500,
    doc: 'A module answered a page of a streamed export without {columns, rows, next_cursor}: a bug in the module.',
    message: () => 'The module answered a stream page without {columns, rows, next_cursor}.',
  },
});
