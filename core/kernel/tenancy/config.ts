/** Signup's settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { bool, settingsGroup } from '../config/settings';

export const tenancySettings = settingsGroup('tenants', {
  publicSignup: bool('PUBLIC_SIGNUP', { default: false }, 'Allows public signup at `POST /auth/tenants`; off, it answers 403 `SIGNUP_DISABLED`.'),
  resellerSignup: bool('RESELLER_SIGNUP', { default: false }, "Allows reseller applications at `POST /reseller-register/apply` (each makes an active tenant and a pending application to its parent; it joins the reseller chain only when that parent's admin approves, `/reseller/applications`); off, it answers 403 `RESELLER_SIGNUP_DISABLED`."),
});
