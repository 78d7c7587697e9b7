/** Password hashing with bcrypt (cost 10: about 50 ms here, a fair price per login). */
import bcrypt from 'bcryptjs';

const COST = 10;

export const hashPassword = (plain: string) => bcrypt.hash(plain, COST);
export const verifyPassword = (plain: string, hash: string) => bcrypt.compare(plain, hash);

/** Minimum rules for new passwords; returns messages for the `password` field. */
export function passwordProblems(password: unknown): string[] {
  if (typeof password !== 'string' || password.length === 0) return ['The password field is required.'];
  const problems: string[] = [];
  if (password.length < 8) problems.push('The password must be at least 8 characters.');
  if (password.length > 200) problems.push('The password may not be greater than 200 characters.');
  return problems;
}
