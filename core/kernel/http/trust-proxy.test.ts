/** TRUST_PROXY: which peers may name the client's address (spec 1 Limits count failed logins per address). */
import { parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it('trusts loopback only when unset', () => {
    expect(parseTrustProxy(undefined)).toBe('loopback');
    expect(parseTrustProxy(' ')).toBe('loopback');
  });
  it("accepts express's values: true, false, a hop count, addresses, CIDR ranges and names", () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('TRUE')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7, fd00::/8, loopback')).toBe('10.0.0.0/8, 192.168.1.7, fd00::/8, loopback');
    expect(parseTrustProxy('10.0.0.0/255.0.0.0')).toBe('10.0.0.0/255.0.0.0');
  });
  it.each(['proxy.example.com', '10.0.0.0/33', 'fd00::/129', 'loopback,', '10.0.0.1/8/8'])('refuses %s', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow(/TRUST_PROXY/);
  });
});
