/**
 * Outgoing mail. `send` only queues the message (job queue `mail`, retried with backoff), so a slow
 * or unreachable mail server never fails or slows the request that caused the mail. The job sends
 * through nodemailer over SMTP when SMTP_URL is set; otherwise it writes the message to the outbox
 * folder and logs it, so development and tests without a mail server still see every mail.
 */
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { JobQueue } from '../../kernel/drivers';
import type { Logger } from '../../kernel/logger';
import type { MailMessage } from './message';
import { writeToOutbox } from './outbox';

export type { MailMessage } from './message';

export const MAIL_QUEUE = 'mail';

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where mails go without SMTP_URL, normally <DATA_DIR>/outbox. */
  outboxDir: string;
  queue: JobQueue;
  logger: Logger;
}

export interface Mailer {
  /** Queues the message; resolves with the job id once it is queued, not once it is delivered. */
  send(message: MailMessage): Promise<string>;
}

export function createMailer(opts: MailerOptions): Mailer {
  const logger = opts.logger.child({ part: 'mail' });
  const deliver = opts.smtpUrl ? smtpDelivery(opts.smtpUrl, opts.from) : outboxDelivery(opts.outboxDir, opts.from, logger);
  opts.queue.process<MailMessage, { messageId: string }>(MAIL_QUEUE, 2, async (job) => {
    const messageId = await deliver(job.data);
    logger.info({ to: job.data.to, subject: job.data.subject, messageId }, 'mail sent');
    return { messageId };
  });
  return {
    send: (message) =>
      opts.queue.add(MAIL_QUEUE, 'send', message, {
        // 2 s, 6 s, 14 s, 30 s: rides out a mail server restart without hammering it.
        attempts: 5,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: 100,
        removeOnFail: 1000,
      }),
  };
}

function smtpDelivery(smtpUrl: string, from: string) {
  const transport = createTransport(smtpUrl);
  return async (m: MailMessage) => (await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html })).messageId;
}

function outboxDelivery(dir: string, from: string, logger: Logger) {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return async (m: MailMessage) => {
    const info = await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    const file = await writeToOutbox(path.resolve(dir), info.message as Buffer, { ...m, from, messageId: info.messageId });
    logger.info({ to: m.to, subject: m.subject, file }, 'SMTP_URL is not set: mail written to the outbox');
    return info.messageId;
  };
}
