/** Errors of the HTTP edge itself: bodies it cannot read, paths it cannot decode, routes it does not have. */
import { defineErrors } from '../errors';

const MALFORMED = 'The request body is not valid JSON.';

export const httpErrors = defineErrors('http', {
  malformedJson: {
    code: 'MALFORMED_JSON', status: 400,
    doc: "The body is not valid JSON; answered in the shape of the route's area, as an input error on `request`.",
    message: () => MALFORMED,
    // The field errors give every area its input-error shape: {message, errors}, {success, message, errors}, {error, code, details}.
    details: () => ({ errors: { request: [MALFORMED] } }),
  },
  bodyTooLarge: {
    code: 'PAYLOAD_TOO_LARGE', status: 413,
    doc: 'The request body (or the uploaded file) is over its size limit.',
    message: (limit: number | undefined) => `The request body exceeds the limit of ${limit} bytes.`,
    details: (limit: number | undefined) => ({ limit }),
  },
  unsupportedEncoding: {
    code: 'UNSUPPORTED_ENCODING', status: 415,
    doc: 'The body is compressed or encoded in a way the platform does not read (Content-Encoding or charset).',
    message: (reason: string | undefined) => reason ?? 'Unsupported body encoding.',
  },
  badPath: {
    code: 'BAD_REQUEST', status: 400,
    message: () => 'The request path is not valid percent-encoding.',
  },
  refused: {
    code: 'BAD_REQUEST', status: 400,
    message: (reason: string | undefined, _status: number) => reason ?? 'Bad request.',
    statusFor: (_reason: string | undefined, status: number) => status,
  },
  internal: {
    code: 'INTERNAL', status: 500,
    doc: 'The platform failed unexpectedly; the answer carries only the request id (X-Request-Id), the log has the rest.',
    message: (message: string) => message,
  },
  methodNotAllowed: {
    code: 'METHOD_NOT_ALLOWED', status: 405,
    doc: 'The path exists but takes other methods: the Allow header and details.allowed list them.',
    message: (path: string, method: string, allowed: string[]) => `${path} does not take ${method}; it takes ${allowed.join(', ')}.`,
    details: (_path: string, _method: string, allowed: string[]) => ({ allowed }),
  },
  routeNotFound: {
    code: 'ROUTE_NOT_FOUND', status: 404,
    doc: 'No route serves that method and path (under /api/v1, the message may hint at the right one).',
    message: (method: string, path: string, hint: string) => `No route for ${method} ${path}.${hint}`,
  },
});
