/** Errors of signing in (spec 1, Authentication). */
import { defineErrors } from '../errors';

export const accountErrors = defineErrors('accounts', {
  inactive: {
    code: 'ACCOUNT_INACTIVE', status: 403,
    doc: 'The account is deactivated, or may not sign in at this tenant.',
    message: (message: string) => message,
  },
  membershipSuspended: {
    code: 'MEMBERSHIP_SUSPENDED', status: 403,
    doc: "The user's membership of this tenant is suspended.",
    message: () => 'Your membership of this organisation is suspended.',
  },
});
