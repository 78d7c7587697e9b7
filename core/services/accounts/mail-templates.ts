/**
 * The account mails, each as HTML and plain text. The verification mail carries what spec 1
 * (Email verification) asks for: the organisation name, the link, an expiry notice and a security
 * warning. Everything user-supplied is escaped in the HTML part. The invitation mail carries the only
 * copy of its link, so it says who invited whom to what, and that nothing happens without the link.
 */
import type { MailMessage } from '../mail/mailer';

export interface VerificationMailInput {
  to: string;
  userName: string;
  organisation: string;
  url: string;
  expiresAt: Date;
  ttlSeconds: number;
  /** Why the mail is sent: a new account or a changed address read differently. */
  reason: 'registration' | 'email_change' | 'resend';
}

export function verificationMail(m: VerificationMailInput): MailMessage {
  const lead =
    m.reason === 'email_change'
      ? `You changed the email address of your ${m.organisation} account to ${m.to}. Please confirm it by opening this link:`
      : `Please confirm that ${m.to} is the email address of your ${m.organisation} account by opening this link:`;
  const expiry = `This link expires in ${duration(m.ttlSeconds)} (${m.expiresAt.toISOString()}). After that, sign in and request a new one.`;
  const warning =
    `Security notice: if you did not ${m.reason === 'email_change' ? 'change your email address' : 'create this account'}, ignore this email; ` +
    `nothing is confirmed without the link. Never forward this link: anyone who opens it confirms this address. ` +
    `${m.organisation} will never ask you for your password by email.`;
  const text = [`Hello ${m.userName},`, '', lead, '', m.url, '', expiry, '', warning, '', `-- ${m.organisation}`].join('\n');
  const html = page(
    `<p>Hello ${esc(m.userName)},</p>
<p>${esc(lead)}</p>
<p><a href="${esc(m.url)}">Verify my email address</a></p>
<p style="word-break:break-all;font-size:12px">${esc(m.url)}</p>
<p>${esc(expiry)}</p>
<p style="color:#8a1c1c">${esc(warning)}</p>
<p>&mdash; ${esc(m.organisation)}</p>`,
  );
  return { to: m.to, subject: `Verify your email address for ${m.organisation}`, text, html };
}

/** Sent to the old address when the email changes, so a hijacked account does not change silently. */
export function emailChangedNotice(m: { to: string; userName: string; organisation: string; newEmail: string }): MailMessage {
  const body = `The email address of your ${m.organisation} account was changed from ${m.to} to ${m.newEmail}. If you did not do this, contact your ${m.organisation} administrator at once and change your password.`;
  return {
    to: m.to,
    subject: `Your ${m.organisation} email address was changed`,
    text: [`Hello ${m.userName},`, '', body, '', `-- ${m.organisation}`].join('\n'),
    html: page(`<p>Hello ${esc(m.userName)},</p>\n<p>${esc(body)}</p>\n<p>&mdash; ${esc(m.organisation)}</p>`),
  };
}

export interface InvitationMailInput {
  to: string;
  organisation: string;
  inviter: string;
  role: string;
  url: string;
  expiresAt: Date;
  ttlSeconds: number;
}

export function invitationMail(m: InvitationMailInput): MailMessage {
  const lead = `${m.inviter} invited ${m.to} to join ${m.organisation} as ${m.role}. Open this link to see the invitation and accept or decline it:`;
  const inApp = `If you already have an account with this address, you can also sign in and accept it under your invitations.`;
  const expiry = `This invitation expires in ${duration(m.ttlSeconds)} (${m.expiresAt.toISOString()}). After that, ask ${m.organisation} to send it again.`;
  const warning =
    `Security notice: if you did not expect this invitation, ignore this email; nobody joins ${m.organisation} with your address, ` +
    `and nobody gets into your account, without this link. Never forward it.`;
  const text = ['Hello,', '', lead, '', m.url, '', inApp, '', expiry, '', warning, '', `-- ${m.organisation}`].join('\n');
  const html = page(
    `<p>Hello,</p>
<p>${esc(lead)}</p>
<p><a href="${esc(m.url)}">Open the invitation</a></p>
<p style="word-break:break-all;font-size:12px">${esc(m.url)}</p>
<p>${esc(inApp)}</p>
<p>${esc(expiry)}</p>
<p style="color:#8a1c1c">${esc(warning)}</p>
<p>&mdash; ${esc(m.organisation)}</p>`,
  );
  return { to: m.to, subject: `${m.inviter} invited you to join ${m.organisation}`, text, html };
}

function page(body: string): string {
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">\n${body}\n</body></html>`;
}

function duration(seconds: number): string {
  if (seconds % 86400 === 0 && seconds >= 2 * 86400) return `${seconds / 86400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
