/** `mail.send` (core/services/mail/send-operation.ts): a plain-text mail through the platform's transport. */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

export const mailSend = coreContract({
  name: 'mail.send',
  description: 'Queues a plain-text mail {to, subject, text} through the platform mail transport. Returns {queued: true, id}.',
  input: Type.Object(
    {
      // One address; no display names or lists, so a module cannot fan one call out to many people.
      to: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@<>,;"]+@[^\\s@<>,;"]+\\.[^\\s@<>,;"]+$' }),
      // No line breaks: a subject is one header line.
      subject: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\r\\n]*$' }),
      text: Type.String({ minLength: 1, maxLength: 100_000 }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ queued: Type.Optional(Type.Boolean()), id: Type.Optional(Type.String()) }),
  permission: 'mail.send',
  public: true,
});
