/** The mail part (core/kernel/parts): the accounts part owns the one mailer (its queue worker); modules reach it as mail.send. */
import { accountsRef } from '../accounts/part';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { registerMailSendOperation } from './send-operation';

export const mailRef = partRef<void>('mail');

export const mailPart = definePart({ ref: mailRef, deps: { accounts: accountsRef, kernel: kernelRef }, init: ({ accounts, kernel }) => registerMailSendOperation(kernel.bus, accounts.mailer) });
