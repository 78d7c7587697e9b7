/** Issue 9, SSRF rule: which addresses webhook deliveries may not reach. */
import { checkUrl } from './deliver';

describe('checkUrl', () => {
  it('refuses other schemes, credentials and private literals unless allowed', async () => {
    expect(await checkUrl('ftp://8.8.8.8/', false)).toMatchObject({ ok: false });
    expect(await checkUrl('http://user:pw@8.8.8.8/', false)).toMatchObject({ ok: false });
    expect(await checkUrl('http://[::1]:8080/', false)).toMatchObject({ ok: false });
    expect(await checkUrl('http://localhost/', false)).toMatchObject({ ok: false });
    expect(await checkUrl('http://127.0.0.1/', true)).toMatchObject({ ok: true, address: '127.0.0.1' });
    expect(await checkUrl('https://8.8.8.8/hook', false)).toMatchObject({ ok: true });
  });
});
