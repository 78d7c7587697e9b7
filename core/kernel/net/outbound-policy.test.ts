/** SSRF rule shared by webhooks, host.fetch, client releases and web push: which addresses outbound calls reach. */
import { OutboundUrlError, checkOutboundUrl, classifyAddress, resolveOutbound, type OutboundPolicy } from './outbound-policy';

const open: OutboundPolicy = { allowPrivate: true, plainHttp: 'any' };
const closed: OutboundPolicy = { allowPrivate: false, plainHttp: 'any' };

describe('classifyAddress', () => {
  it.each([
    '127.0.0.1', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '0.0.0.0', '198.18.0.1', '192.0.0.8',
    '::1', '::', 'fc00::1', 'fd12::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::10.0.0.1',
  ])('%s is private', (ip) => expect(classifyAddress(ip)).toBe('private'));
  it.each([
    '169.254.169.254', '169.254.170.2', '169.254.0.1', 'fe80::1', 'fd00:ec2::254', '100.100.100.200', '168.63.129.16',
    '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '224.0.0.1', 'ff02::1', 'not-an-address',
  ])('%s is never reached', (ip) => expect(classifyAddress(ip)).toBe('never'));
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) =>
    expect(classifyAddress(ip)).toBe('public'));
});

describe('checkOutboundUrl and resolveOutbound', () => {
  it('refuses other schemes and credentials; https only in production, http to loopback names elsewhere', () => {
    expect(() => checkOutboundUrl('ftp://8.8.8.8/', open)).toThrow(/http or https/);
    expect(() => checkOutboundUrl('http://user:pw@8.8.8.8/', open)).toThrow(/credentials/);
    expect(() => checkOutboundUrl('http://127.0.0.1:9/m.json', { allowPrivate: true, plainHttp: 'never' })).toThrow(/https/);
    expect(checkOutboundUrl('http://127.0.0.1:9/m.json', { allowPrivate: true, plainHttp: 'loopback' }).host).toBe('127.0.0.1:9');
    expect(() => checkOutboundUrl('http://10.1.2.3/m.json', { allowPrivate: true, plainHttp: 'loopback' })).toThrow(/https/);
  });

  it('refuses private literals and names unless allowed, and link-local or metadata ones always', async () => {
    await expect(resolveOutbound('[::1]', closed)).rejects.toThrow(/private or loopback/);
    await expect(resolveOutbound('localhost', closed)).rejects.toThrow(/private or loopback/);
    await expect(resolveOutbound('127.0.0.1', open)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveOutbound('8.8.8.8', closed)).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
    await expect(resolveOutbound('169.254.169.254', open)).rejects.toThrow(/never calls/);
    await expect(resolveOutbound('[fe80::1]', open)).rejects.toThrow(/never calls/);
    // A name with one bad address among good ones is refused as a whole.
    const mixed = { ...open, resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '169.254.169.254', family: 4 }] };
    await expect(resolveOutbound('metadata.example', mixed)).rejects.toThrow(/metadata\.example \(169\.254\.169\.254\)/);
    const none = { ...closed, resolve: async () => [] };
    await expect(resolveOutbound('nowhere.example', none)).rejects.toMatchObject({ unresolved: true });
    await expect(resolveOutbound('nowhere.example', none)).rejects.toBeInstanceOf(OutboundUrlError);
  });
});
