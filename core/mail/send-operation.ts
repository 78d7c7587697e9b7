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
import type { Bus } from '../bus/bus';
import { escapeHtml } from '../escape-html';
import type { Mailer } from './mailer';

export const MAIL_SEND_OPERATION = 'mail.send';

const MAIL_SEND_INPUT = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'subject', 'text'],
  properties: {
    // One address; no display names or lists, so a module cannot fan one call out to many people.
    to: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@<>,;"]+@[^\\s@<>,;"]+\\.[^\\s@<>,;"]+$' },
    // No line breaks: a subject is one header line.
    subject: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\r\\n]*$' },
    text: { type: 'string', minLength: 1, maxLength: 100_000 },
  },
} as const;

interface MailSendInput {
  to: string;
  subject: string;
  text: string;
}

/** Every platform mail carries an HTML part too: the text, escaped, line breaks kept. */
export function textToHtml(text: string): string {
  const body = text.split(/\r?\n/).map(escapeHtml).join('<br>\n');
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">\n<p>${body}</p>\n</body></html>`;
}

export function registerMailSendOperation(bus: Bus, mailer: Mailer): void {
  bus.registerCore({
    name: MAIL_SEND_OPERATION,
    description: 'Queues a plain-text mail {to, subject, text} through the platform mail transport. Returns {queued: true, id}.',
    input: MAIL_SEND_INPUT,
    output: { type: 'object', properties: { queued: { type: 'boolean' }, id: { type: 'string' } } },
    permission: 'mail.send',
    public: true,
    handler: async (input: MailSendInput) => {
      const id = await mailer.send({ to: input.to, subject: input.subject, text: input.text, html: textToHtml(input.text) });
      return { queued: true, id };
    },
  });
}
