/**
 * Errors of the ai module, one catalog (listed in docs/reference/error-codes.md). A thrown one becomes
 * a typed bus error {code, message, details}; the platform answers HTTP with `details.status`. No
 * message or detail ever carries an API key: vendor error bodies are cut short and scrubbed of the key
 * (see llm/vendor-error.ts).
 */
import { defineErrors } from '../../../sdk';

type FieldErrors = Record<string, string[]>;
type Attempt = { provider: string; reason: string };

export const aiErrors = defineErrors('ai', {
  /** 422 with the field at fault: answered as the platform's validation shape {message, code, errors: {field: [message]}}. */
  invalid: { code: 'VALIDATION_FAILED', status: 422, message: (_field: string, message: string) => message, details: (field, message) => ({ errors: { [field]: [message] } }) },
  invalidFields: { code: 'VALIDATION_FAILED', status: 422, message: (message: string, _errors: FieldErrors) => message, details: (_message, errors) => ({ errors }) },
  notFound: { code: 'NOT_FOUND', status: 404, message: (what: string, id: string) => `${what} "${id}" not found.`, details: (_what, id) => ({ id }) },
  conflict: { code: 'CONFLICT', status: 409, message: (message: string, _details: Record<string, unknown> = {}) => message, details: (_message, details = {}) => details },
  forbidden: { code: 'FORBIDDEN', status: 403, message: (message: string) => message },
  notConfigured: {
    code: 'AI_NOT_CONFIGURED', status: 422,
    doc: 'No provider of the kind is configured (or the configured one lost its key, or none can be used).',
    message: (message: string, _details?: Record<string, unknown>) => message,
    details: (_message, details) => details,
  },
  providersFailed: {
    code: 'AI_PROVIDERS_FAILED', status: 502,
    doc: "Every provider tried failed; details.attempts gives each one's reason.",
    message: (attempts: Attempt[]) => `No AI provider answered: ${attempts.map((a) => `${a.provider}: ${a.reason}`).join('; ')}`,
    details: (attempts) => ({ attempts }),
  },
  /** The model answered, but not in the shape asked for (e.g. translation JSON). */
  badModelAnswer: {
    code: 'AI_BAD_ANSWER', status: 502,
    doc: 'The model answered, but not in the shape asked for.',
    message: (provider: string, reason: string) => `The model of provider ${provider} gave an answer that could not be used: ${reason}`,
    details: (provider) => ({ provider }),
  },
  badAnswer: { code: 'AI_BAD_ANSWER', status: 502, message: (message: string, _details?: Record<string, unknown>) => message, details: (_message, details) => details },
  noSpeech: {
    code: 'NO_SPEECH', status: 422,
    doc: 'No speech was recognised in the recording.',
    message: () => 'No speech was recognised in the recording; speak closer to the microphone and try again.',
    details: () => ({ errors: { file: ['No speech was recognised in the recording.'] } }),
  },
  audioRejected: {
    code: 'AUDIO_REJECTED', status: 422,
    doc: 'The recording cannot be transcribed (its type, size or length); details.errors names the field.',
    message: (_field: string, message: string, _extra: Record<string, unknown> = {}) => message,
    details: (field, message, extra = {}) => ({ errors: { [field]: [message] }, ...extra }),
  },
  embeddingsUnsupported: {
    code: 'EMBEDDINGS_UNSUPPORTED', status: 422,
    doc: "None of the providers named supports embeddings (only vendora_compatible ones do); details.providers gives each one's type.",
    message: (types: Array<{ provider: string; type: string }>) => `Embeddings need a vendora_compatible provider; ${types.map((t) => `"${t.provider}" is ${t.type}`).join(', ')}, which has no embeddings.`,
    details: (types) => ({ providers: types, errors: { provider_id: [`provider type ${types[0]!.type} does not support embeddings`] } }),
  },
  roleNotDeletable: {
    code: 'ROLE_NOT_DELETABLE', status: 409,
    doc: 'A shipped agent role cannot be deleted, only customised.',
    message: (roleId: string) => `The shipped role "${roleId}" cannot be deleted, only customised.`,
    details: (roleId) => ({ id: roleId }),
  },
  extractionNotProposed: {
    code: 'EXTRACTION_NOT_PROPOSED', status: 409,
    doc: 'The order extraction is no longer proposed: it is confirmed (or discarded) once; details.status_now names its status.',
    message: (id: string, now: string) => `Order extraction "${id}" is ${now}, not proposed: it is confirmed once.`,
    details: (id, now) => ({ id, status_now: now }),
  },
  nothingToOrder: {
    code: 'NOTHING_TO_ORDER', status: 422,
    doc: 'None of the proposed lines is a product of the catalog now.',
    message: () => 'None of the proposed lines is a product of the catalog now; nothing to order.',
    details: () => ({ errors: { lines: ['no product of the catalog'] } }),
  },
  runChanged: {
    code: 'RUN_CHANGED', status: 409,
    doc: 'The graph run was changed by another request (resumed or cancelled); read its status and try again.',
    message: (runId: string) => `Graph run ${runId} was changed by another request (resumed or cancelled); read its status and try again.`,
    details: (runId) => ({ run_id: runId }),
  },
  runNotPaused: {
    code: 'RUN_NOT_PAUSED', status: 409,
    doc: 'Only a paused graph run takes human input; details.current_status names its status.',
    message: (runId: string, status: string) => `Graph run ${runId} is ${status}; only a paused run takes human input.`,
    details: (runId, status) => ({ run_id: runId, current_status: status }),
  },
  runNotCancellable: {
    code: 'RUN_NOT_CANCELLABLE', status: 409,
    doc: 'Only a running or paused graph run can be cancelled; details.current_status names its status.',
    message: (runId: string, status: string) => `Graph run ${runId} is ${status}; only a running or paused run can be cancelled.`,
    details: (runId, status) => ({ run_id: runId, current_status: status }),
  },
  runBroken: {
    code: 'RUN_BROKEN', status: 409,
    doc: 'The graph run is paused at a node that takes no human input; 500 when its flow lacks the node (a bug of the module).',
    message: (message: string, _runId?: string) => message,
    details: (_message, runId) => (runId === undefined ? undefined : { run_id: runId }),
    statusFor: (_message, runId) => (runId === undefined ? 500 : 409),
  },
  nodeLimit: {
    code: 'GRAPH_NODE_LIMIT', status: 422,
    doc: 'A graph run reached its most nodes (spec 2, Limits) and failed.',
    message: (runId: string, limit: number, node: string) => `Graph run ${runId} reached ${limit} nodes; the ${limit + 1}st ("${node}") is refused (spec 2, Limits).`,
    details: (runId, limit, node) => ({ run_id: runId, limit, node }),
  },
  runInterrupted: {
    code: 'RUN_INTERRUPTED', status: 409,
    doc: "The graph run stopped during a node that acts in orders and may have acted; the run's error, not an answer.",
    message: (node: string | null) => `The run stopped during "${node}", which acts in orders and may have acted; check the order and start a new run if needed.`,
  },
  nodeFailed: {
    code: 'NODE_FAILED', status: 500,
    doc: "A graph node failed with no code of its own; the run's error, not an answer.",
    message: (node: string, reason: string) => `Node "${node}" failed: ${reason}`,
  },
  toolFailed: {
    code: 'TOOL_FAILED', status: 500,
    doc: "A tool failed with no code of its own; the tool's result, given back to the model.",
    message: (reason: string) => reason,
  },
  toolNotAllowed: {
    code: 'TOOL_NOT_ALLOWED', status: 403,
    doc: "The model asked for a tool the agent role does not offer; the tool's result, given back to the model.",
    message: (tool: string, role: string) => `The tool "${tool}" is not offered to the role "${role}".`,
  },
  toolCallLimit: {
    code: 'TOOL_CALL_LIMIT', status: 429,
    doc: "The model asked for more tools than run for one message; the tool's result, given back to the model.",
    message: (limit: number, tool: string) => `At most ${limit} tools run for one message; "${tool}" did not.`,
  },
  ndrCaseNotFound: {
    code: 'NDR_CASE_NOT_FOUND', status: 409,
    doc: 'The NDR flow chose to reattempt or return, but the order has no open NDR case.',
    message: (orderNumber: string, action: 'RTO' | 'REATTEMPT') => `Order ${orderNumber} has no open NDR case to ${action === 'RTO' ? 'return to origin' : 'reattempt'}.`,
  },
  refundNotPossible: {
    code: 'REFUND_NOT_POSSIBLE', status: 409,
    doc: 'The refund flow approved a refund no completed payment of the order has left.',
    message: (amount: string) => `No completed payment of the order has ${amount} left to refund.`,
  },
});

export const { invalid, notFound, conflict, notConfigured, providersFailed, badModelAnswer } = aiErrors;

/** What a run or a tool result records of an error: its code and message (no status: it answers no request). */
export const codeAndMessage = (err: { code: string; message: string }) => ({ code: err.code, message: err.message });
