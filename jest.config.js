/** Jest: TypeScript through ts-jest (type-checking runs once, in `npm run typecheck`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/core', '<rootDir>/sandbox', '<rootDir>/sdk', '<rootDir>/registry', '<rootDir>/rings', '<rootDir>/modules', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testTimeout: 60000,
  maxWorkers: 2,
};
