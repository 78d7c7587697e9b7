/** The module settings suites' fixture modules: tuner (declares settings, api_key a secret) and peek (another module). */
import path from 'node:path';

export const settingsFixture = (name: string) => path.join(__dirname, 'fixtures', name);
