/**
 * `mail.send` on the bus: a public core operation, so any module may send a plain-text mail through
 * the platform's mail transport (SMTP_URL, else the outbox) without an api.consumes entry — the
 * email channel of the orders module's notification rules uses it. Like every bus call it is rate
 * limited per (tenant, caller, operation) (BUS_RATE_LIMIT). Edge callers acting for a user
 * (GraphQL, workflows, AI tools) need the permission `mail.send`, so exposing core operations at an
 * edge does not let any member mail anyone from the platform's address.
 *
 * The mail is queued (job queue `mail`, retried with backoff, see mailer.ts); the answer says it was
 * accepted, with the job id, not that a mail server took it.
 */
import { mailSend } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { escapeHtml } from '../../kernel/escape-html';
import type { Mailer } from './mailer';

export const MAIL_SEND_OPERATION = mailSend.name;

/** Every platform mail carries an HTML part too: the text, escaped, line breaks kept. */
export function textToHtml(text: string): string {
  const body = text.split(/\r?\n/).map(escapeHtml).join('<br>\n');
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">\n<p>${body}</p>\n</body></html>`;
}

export function registerMailSendOperation(bus: Bus, mailer: Mailer): void {
  bus.registerCore(defineCoreOperation(mailSend, async (input) => {
    const id = await mailer.send({ to: input.to, subject: input.subject, text: input.text, html: textToHtml(input.text) });
    return { queued: true, id };
  }));
}
