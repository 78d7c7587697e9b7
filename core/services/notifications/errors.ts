/** Errors of notification delivery channels. */
import { defineErrors } from '../../kernel/errors';

export const notificationErrors = defineErrors('notifications', {
  webPushDisabled: {
    code: 'WEB_PUSH_DISABLED', status: 404,
    doc: 'Web push is not configured on this platform (no VAPID key).',
    message: () => 'Web push is not configured on this platform.',
  },
});
