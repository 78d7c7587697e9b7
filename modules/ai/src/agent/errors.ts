/** Errors of the agent and graph areas, thrown the SDK way: {code, message, details: {status, ...}}. */
export class AiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> & { status: number },
  ) {
    super(message);
  }
}

export const notFound = (what: string, id: string) => new AiError('NOT_FOUND', `${what} "${id}" not found.`, { status: 404, id });

/** The 422 validation shape the platform uses: {errors: {field: [message]}}. */
export const invalid = (field: string, message: string) => new AiError('VALIDATION_FAILED', message, { status: 422, errors: { [field]: [message] } });
