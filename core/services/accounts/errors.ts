/** Errors of signing in (spec 1, Authentication). */
import { defineErrors } from '../../kernel/errors';

export const accountErrors = defineErrors('accounts', {
  inactive: {
    code: 'ACCOUNT_INACTIVE', status: 403,
    doc: 'The account is deactivated, or may not sign in at this tenant.',
    message: (message: string) => message,
  },
  emailNotVerified: {
    code: 'EMAIL_NOT_VERIFIED', status: 403,
    doc: 'The action needs a verified email address: verify it (POST /profile/email/resend-verification) or open the link in the invitation mail.',
    message: () => 'Verify your email address first (POST /profile/email/resend-verification), or open the link in the invitation mail.',
  },
  selfDeactivation: {
    code: 'SELF_DEACTIVATION', status: 409,
    doc: 'A super admin cannot deactivate their own account; another super admin can.',
    message: () => 'You cannot deactivate your own account; ask another super admin.',
  },
  membershipSuspended: {
    code: 'MEMBERSHIP_SUSPENDED', status: 403,
    doc: "The user's membership of this tenant is suspended.",
    message: () => 'Your membership of this organisation is suspended.',
  },
});
