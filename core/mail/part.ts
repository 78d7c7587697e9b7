/** The mail part (core/parts): the accounts part owns the one mailer (its queue worker); modules reach it as mail.send. */
import { platformPart } from '../parts/platform-parts';
import { registerMailSendOperation } from './send-operation';

export const mailPart = platformPart({ id: 'mail', deps: ['accounts', 'kernel'], init: ({ accounts, kernel }) => registerMailSendOperation(kernel.bus, accounts.mailer) });
