/** Issue 9, SSRF rule: which addresses webhook deliveries may not reach. */
import { checkUrl, isPrivateAddress } from './deliver';

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])(
    'refuses %s',
    (ip) => expect(isPrivateAddress(ip)).toBe(true),
  );
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (ip) => expect(isPrivateAddress(ip)).toBe(false));
});

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
