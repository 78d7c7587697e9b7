/** Spec 1 Limits (failed logins per IP) and the API rate limit: which addresses count as one client. */
import { addressBucket } from './address-bucket';

describe('addressBucket', () => {
  it('counts every address of one IPv6 /64 as one client, however it is spelled', () => {
    const bucket = addressBucket('2001:db8:1:2::1');
    expect(bucket).toBe('2001:db8:1:2::/64');
    for (const ip of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2:a:b:1.2.3.4', '2001:db8:1:2::5%eth0']) {
      expect(addressBucket(ip)).toBe(bucket);
    }
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(bucket);
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps IPv4 addresses apart, IPv4-mapped ones included', () => {
    expect(addressBucket('203.0.113.5')).toBe('203.0.113.5');
    expect(addressBucket('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressBucket('::ffff:cb00:7105')).toBe('203.0.113.5');
    expect(addressBucket('203.0.113.6')).not.toBe(addressBucket('203.0.113.5'));
  });

  it('passes anything that is not an address through unchanged', () => {
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
