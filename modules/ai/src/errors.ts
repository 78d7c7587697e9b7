/**
 * Errors of the ai module. The platform turns a thrown value carrying `code` into a typed bus error
 * {code, message, details} and answers HTTP with `details.status` (400 when absent). No message or
 * detail ever carries an API key: vendor error bodies are cut short and scrubbed of the key
 * (see llm/vendor-error.ts).
 */
export class AiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AiError';
  }
}

/** 422 with the field at fault: answered as the platform's validation shape {message, code, errors: {field: [message]}}. */
export const invalid = (field: string, message: string) => new AiError('VALIDATION_FAILED', message, { status: 422, errors: { [field]: [message] } });

export const notFound = (what: string, id: string) => new AiError('NOT_FOUND', `${what} "${id}" not found.`, { status: 404, id });

export const conflict = (message: string, details: Record<string, unknown> = {}) => new AiError('CONFLICT', message, { status: 409, ...details });

/** No provider of the kind is configured (or the configured one lost its key). */
export const notConfigured = (message: string) => new AiError('AI_NOT_CONFIGURED', message, { status: 422 });

/** Every provider tried failed: 502 with each one's reason. */
export const providersFailed = (attempts: Array<{ provider: string; reason: string }>) =>
  new AiError(
    'AI_PROVIDERS_FAILED',
    `No AI provider answered: ${attempts.map((a) => `${a.provider}: ${a.reason}`).join('; ')}`,
    { status: 502, attempts },
  );

/** The model answered, but not in the shape asked for (e.g. translation JSON). */
export const badModelAnswer = (provider: string, reason: string) =>
  new AiError('AI_BAD_ANSWER', `The model of provider ${provider} gave an answer that could not be used: ${reason}`, { status: 502, provider });
