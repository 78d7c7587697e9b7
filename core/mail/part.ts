/** The mail part (core/parts): the accounts part owns the one mailer (its queue worker); modules reach it as mail.send. */
import { accountsRef } from '../accounts/part';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { registerMailSendOperation } from './send-operation';

export const mailRef = partRef<void>('mail');

export const mailPart = definePart({ ref: mailRef, deps: { accounts: accountsRef, kernel: kernelRef }, init: ({ accounts, kernel }) => registerMailSendOperation(kernel.bus, accounts.mailer) });
