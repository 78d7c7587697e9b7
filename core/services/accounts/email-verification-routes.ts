/**
 * GET /email/verify/{id}/{hash}?tenant=<tenant_id> (spec 1, Email verification), also served at
 * `<app_url>/email/verify/...`, the form the mail links to (core/kernel/http/app.ts). Public: no
 * Authorization header is used. What the hash carries, and the earlier form with `expires` and
 * `signature` in the query, are in email-verification.ts.
 *   200 {message}                          verified now (activity email_verified)
 *   200 {message, already_verified: true}  was verified before
 *   422 {message, errors: {hash: [...]}}   tampered, forged, or for an address the account no longer has
 *   422 {message, errors: {expires: [...]}} authentic but older than EMAIL_VERIFICATION_TTL_SECONDS
 *                                          (default 24 hours): sign in and POST /profile/email/resend-verification
 */
import type { RequestHandler, Router } from 'express';
import { clientIp } from '../../kernel/auth/client-ip';
import type { Accounts } from './index';

export function registerEmailVerificationRoutes(api: Router, { accounts }: { accounts: Accounts; authenticated: RequestHandler }): void {
  api.get('/email/verify/:id/:hash', async (req, res) => {
    const { tenant, expires, signature } = req.query;
    const result = await accounts.verification.verify(
      { id: String(req.params.id), hash: String(req.params.hash), tenant, expires, signature },
      clientIp(req),
    );
    if (result.alreadyVerified) return void res.json({ message: 'Your email address is already verified.', already_verified: true });
    res.json({ message: 'Your email address is verified.' });
  });
}
