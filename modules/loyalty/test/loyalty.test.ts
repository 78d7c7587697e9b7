import path from 'node:path';
import { createTestHost } from '../../../sdk/test-host';

// Runs the built module in the real sandbox against a real database, as the platform will.
describe('loyalty module', () => {
  it('answers loyalty.hello', async () => {
    const host = await createTestHost({ modulePath: path.resolve(__dirname, '..') });
    try {
      const out = await host.call('loyalty.hello', { who: 'Ada' });
      expect(out).toMatchObject({ message: 'Hello, Ada!' });
    } finally {
      await host.close();
    }
  });
});
