/** Errors of realtime broadcasts from modules. */
import { defineErrors } from '../errors';

export const realtimeErrors = defineErrors('realtime', {
  payloadTooLarge: {
    code: 'PAYLOAD_TOO_LARGE', status: 413,
    message: (bytes: number, limit: number) => `The broadcast payload is ${bytes} bytes; the limit is ${limit}. Send an id and let clients fetch the rest.`,
    details: (bytes: number, limit: number) => ({ limit, bytes }),
  },
});
