/** Errors of client releases (spec 1, Client releases). */
import { defineErrors } from '../../kernel/errors';

export const releaseErrors = defineErrors('client releases', {
  noChannel: {
    code: 'NO_RELEASE_CHANNEL', status: 404,
    doc: 'Neither the tenant nor the platform has a client release channel configured.',
    message: () => 'No client release channel is configured for this tenant or the platform.',
  },
});
