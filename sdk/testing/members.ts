/**
 * A member joins a tenant the only way there is (core/services/accounts/invitations.ts): an admin invites the
 * address (POST /members), the mailed link is opened and accepted with a password of the member's
 * own, and the member signs in. Used by createTestHost and the project's own tests, which read the
 * mail wherever their platform sends it (the outbox, or an SMTP stand-in).
 */

export interface JoinInput {
  /** Base URL of the platform, e.g. http://127.0.0.1:41234 */
  url: string;
  adminToken: string;
  /** The tenant the admin's token is for, and the tenant to join (differs for a super admin acting elsewhere). */
  adminTenant: string;
  tenant: string;
  email: string;
  name?: string;
  role?: string;
  password?: string;
  /** Every mail the platform sent so far, oldest first. */
  mails: () => Promise<Array<{ to: string | string[]; text: string }>>;
}

const LINK = /\/invitations\/([A-Za-z0-9_-]{43})\b/;

export async function inviteAndJoin(i: JoinInput): Promise<{ token: string; userId: number }> {
  const password = i.password ?? 'member-password-1';
  const name = i.name ?? i.email.split('@')[0];
  const invitationsTo = async () => (await i.mails()).filter((m) => [m.to].flat().some((t) => t.toLowerCase() === i.email.toLowerCase()) && LINK.test(m.text));
  const before = (await invitationsTo()).length;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${i.adminToken}`, 'x-tenant': i.adminTenant, ...(i.adminTenant === i.tenant ? {} : { 'x-effective-tenant': i.tenant }) };
  const invited = await send(`${i.url}/api/v1/members`, headers, { email: i.email, name, role: i.role ?? 'member' });
  if (invited.status !== 201) throw new Error(`POST /members: ${invited.status} ${JSON.stringify(invited.body)}`);

  const deadline = Date.now() + 10_000;
  let mails = await invitationsTo();
  while (mails.length <= before) {
    if (Date.now() > deadline) throw new Error(`no invitation mail reached ${i.email} within 10 s`);
    await new Promise((r) => setTimeout(r, 25));
    mails = await invitationsTo();
  }
  const link = LINK.exec(mails[mails.length - 1].text)![1];
  const accepted = await send(`${i.url}/api/v1/invitations/${link}/accept`, { 'content-type': 'application/json' }, { name, password, password_confirmation: password });
  if (accepted.status !== 200 && accepted.status !== 201) throw new Error(`accepting the invitation: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  if (accepted.body.token) return { token: accepted.body.token, userId: accepted.body.user.id };
  const login = await send(`${i.url}/api/v1/auth/login`, { 'content-type': 'application/json', 'x-tenant': i.tenant }, { email: i.email, password });
  if (login.status !== 200) throw new Error(`POST /auth/login: ${login.status} ${JSON.stringify(login.body)}`);
  return { token: login.body.token, userId: accepted.body.user.id };
}

async function send(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of the platform's answers
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
