/**
 * A test platform wired for the accounts suites: a real SMTP server receiving its mail, links in
 * mails pointing back at it (a fixed free port, so APP_URL is known before the start), and helpers
 * to act as a given address and browser.
 */
import { freePort } from '../../support/free-port';
import { httpRequest, startTestPlatform, type ApiInit, type ApiResponse, type TestPlatform } from '../../support/test-platform';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../../sdk/testing/smtp-sink';

export const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
export const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
export const SAFARI_IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

export interface AccountsPlatform {
  tp: TestPlatform;
  smtp: SmtpSink;
  api(path: string, init?: ApiInit & { ip?: string; ua?: string }): Promise<ApiResponse>;
  close(): Promise<void>;
}

export async function startAccountsPlatform(env: Record<string, string> = {}, centralDb?: string): Promise<AccountsPlatform> {
  const smtp = await startSmtpSink();
  const port = await freePort();
  const tp = await startTestPlatform({ PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, ...env }, centralDb);
  // Mail goes to the SMTP stand-in here, not to the outbox.
  tp.mails = async () => smtp.mails;
  // The app trusts X-Forwarded-For from loopback, which lets a test speak from any address.
  const api = (path: string, init: ApiInit & { ip?: string; ua?: string } = {}) =>
    tp.api(path, {
      ...init,
      headers: { ...(init.ip ? { 'x-forwarded-for': init.ip } : {}), ...(init.ua ? { 'user-agent': init.ua } : {}), ...(init.headers ?? {}) },
    });
  return {
    tp,
    smtp,
    api,
    close: async () => {
      await tp.close();
      await smtp.close();
    },
  };
}

/** The verification link in a mail's text part. */
export function verificationLink(mail: ReceivedMail): string {
  const m = /https?:\/\/\S+\/email\/verify\/\S+/.exec(mail.text);
  if (!m) throw new Error(`no verification link in: ${mail.text}`);
  return m[0];
}

/** The token of the invitation link in a mail's text part. */
export function invitationToken(mail: ReceivedMail): string {
  const m = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(mail.text);
  if (!m) throw new Error(`no invitation link in: ${mail.text}`);
  return m[1]!;
}

/** Opens a link the way a mail client would: plain GET, no token, no tenant header. */
export async function follow(url: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await httpRequest(url, 'GET', {});
  return { status: res.status, body: res.text ? JSON.parse(res.text) : undefined };
}
