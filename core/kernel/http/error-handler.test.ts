import type { AddressInfo } from 'node:net';
import express from 'express';
import { MandiError } from '../errors';
import { createLogger } from '../logger';
import { errorHandler, useErrorShape } from './error-handler';

/** A real server whose routes fail in the ways the error handler must render. */
async function serve(debugErrors: boolean) {
  const app = express();
  app.get('/wf/crash', useErrorShape('workflows'), () => {
    throw new Error('database went away');
  });
  app.get('/wf/forbidden', useErrorShape('workflows'), () => {
    throw new MandiError('FORBIDDEN', 'You need the ai.view permission.', 403);
  });
  app.get('/plain/crash', () => {
    throw new Error('database went away');
  });
  app.use(errorHandler(createLogger('silent'), debugErrors));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const res = await fetch(base + path);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { get, close: () => new Promise((r) => server.close(r)) };
}

describe('spec 2 Errors: workflow and node endpoints answer {success: false, message, errors?}', () => {
  it('500 says "An error occurred", with the stack only in debug mode', async () => {
    const quiet = await serve(false);
    const debug = await serve(true);
    try {
      expect(await quiet.get('/wf/crash')).toEqual({ status: 500, body: { success: false, message: 'An error occurred', code: 'INTERNAL' } });
      const loud = await debug.get('/wf/crash');
      expect(loud.body).toMatchObject({ success: false, message: 'An error occurred' });
      expect((loud.body.stack as string[])[0]).toContain('database went away');
      // Other areas keep the platform shape.
      expect(await quiet.get('/plain/crash')).toEqual({ status: 500, body: { message: 'Server Error.', code: 'INTERNAL' } });
    } finally {
      await quiet.close();
      await debug.close();
    }
  });

  it('403 says "Insufficient permissions" and keeps the reason in errors', async () => {
    const s = await serve(false);
    try {
      expect(await s.get('/wf/forbidden')).toEqual({
        status: 403,
        body: { success: false, message: 'Insufficient permissions', code: 'FORBIDDEN', errors: { request: ['You need the ai.view permission.'] } },
      });
    } finally {
      await s.close();
    }
  });
});
