/**
 * The rule for new passwords, stated in the 422 messages it produces: 8 to 200 characters, not one
 * of the most common passwords, not one repeated character, and not the account's email or name.
 * No composition rules (NIST SP 800-63B, 5.1.1.2): length plus a deny-list stops the guessable
 * passwords without pushing people towards "Passw0rd!".
 */
import { passwordProblems } from '../../kernel/auth/passwords';

// The most frequent passwords of 8+ characters in public breach corpora.
const COMMON = new Set([
  'password', 'password1', 'password12', 'password123', 'passw0rd', '12345678', '123456789', '1234567890', '0123456789',
  '87654321', '11111111', '00000000', '123123123', 'qwertyui', 'qwerty123', 'qwertyuiop', '1q2w3e4r', '1qaz2wsx', 'zaq12wsx',
  'asdfghjk', 'asdfghjkl', 'iloveyou', 'iloveyou1', 'admin123', 'administrator', 'letmein1', 'welcome1', 'welcome123',
  'abc12345', 'abcd1234', 'football', 'baseball', 'sunshine', 'princess', 'trustno1', 'superman', 'changeme', 'starwars',
  'whatever', 'computer', 'michelle', 'jennifer', 'corvette', 'mercedes', 'internet', 'access14', 'master123',
]);

export const PASSWORD_RULE = 'at least 8 characters, not a common password, not your email address or name';

export function newPasswordProblems(password: unknown, account: { email?: string; name?: string } = {}): string[] {
  const basic = passwordProblems(password);
  if (basic.length || typeof password !== 'string') return basic;
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return ['This password is too common; choose one that is harder to guess.'];
  if (/^(.)\1*$/.test(password)) return ['The password may not be one repeated character.'];
  const email = account.email?.trim().toLowerCase();
  const name = account.name?.trim().toLowerCase();
  if ((email && (lower === email || lower === email.split('@')[0])) || (name && lower === name)) {
    return ['The password may not be your email address or name.'];
  }
  return [];
}
