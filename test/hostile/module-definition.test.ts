/**
 * DESIGN Sandbox, sandbox/README.md (The guest contract): the prelude copies a module's handlers
 * into a frozen table of its own when the context starts, and nothing of the bundle's definition
 * stays reachable from guest code. Module code (or code it evaluates) that rewrites the exported
 * definition, the bundle's global or a shared prototype changes no handler, in its own tenant or
 * another.
 */
import { HostileHarness } from './support';

describe('hostile: a module rewriting its own definition', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('rewrite@1.0.0', 'definition-rewrite', {});
  });
  afterEach(() => h.dispose());

  it('rewriting the exported definition, the bundle global or the handler table changes no handler', async () => {
    await expect(h.invoke('ping', {}, { tenantId: 'one' })).resolves.toBe('original');
    await h.invoke('rewrite', {}, { tenantId: 'one' });
    // The same context, and the next call: the handlers are the ones the bundle defined at start.
    await expect(h.invoke('ping', {}, { tenantId: 'one' })).resolves.toBe('original');
    await expect(h.invoke('added', {}, { tenantId: 'one' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(h.invoke('ping', {}, { tenantId: 'two' })).resolves.toBe('original');
  });

  it('the bundle global is gone once the context started', async () => {
    await expect(h.invoke('globals', {}, { tenantId: 'one' })).resolves.toEqual([]);
  });

  it('a well-behaved module beside it keeps answering', async () => {
    await h.invoke('rewrite', {}, { tenantId: 'one' });
    await expect(h.good(7)).resolves.toEqual({ echoed: { n: 7 } });
  });
});
