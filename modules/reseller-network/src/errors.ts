/**
 * Errors of the reseller network module. A thrown value carrying `code` becomes a typed bus error;
 * `details.status` is the HTTP status; routes answer {error, code, details} (spec 3, Errors).
 */
export class NetworkError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

export const notFound = (id: string) => new NetworkError('NOT_FOUND', `No sub-reseller ${id} below this tenant.`, { status: 404, id });
export const forbidden = (message: string) => new NetworkError('FORBIDDEN', message, { status: 403 });
