/**
 * The trigger payload of a run (execute, test, simulate, retry, webhook): an object, at most
 * MAX_TRIGGER_BYTES as JSON (spec 2, Limits: "not shown"; ours keeps one execution row bounded).
 * Too big or not an object is the spec's 422 with `data` named, and nothing is written.
 */
import { ValidationError } from '../../kernel/errors';
import { useErrorShapeForPath, useTooLargeErrorForPath } from '../../kernel/http/error-handler';
import { isObject } from '../../kernel/is-object';

export const MAX_TRIGGER_BYTES = 512 * 1024;

export function triggerData(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new ValidationError({ data: ['The data must be an object.'] }, 'Validation failed');
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_TRIGGER_BYTES) throw tooBig();
  return value;
}

const tooBig = () => new ValidationError({ data: [`The trigger payload exceeds ${MAX_TRIGGER_BYTES} bytes.`] }, 'Validation failed');

/** A body the JSON parser refused for its size is the same 422 on the routes that take a trigger payload. */
export function tooLargeIsInvalid(): void {
  useTooLargeErrorForPath(/^\/api\/v1\/workflows\/[^/]+\/(?:execute|test|simulate)\/?$/i, tooBig);
  useTooLargeErrorForPath(/^\/api\/webhooks\/workflows\/[^/]+\/?$/i, tooBig);
  useErrorShapeForPath('/api/v1/workflows', 'workflows', true);
  useErrorShapeForPath('/api/v1/workflow-executions', 'workflows', true);
  useErrorShapeForPath('/api/webhooks/workflows', 'workflows', true);
}
