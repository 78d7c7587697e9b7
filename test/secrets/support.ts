/** The secrets suites' fixture modules: vault (declares api_key and webhook_secret) and snoop (another module). */
import path from 'node:path';

export const secretFixture = (name: string) => path.join(__dirname, 'fixtures', name);
