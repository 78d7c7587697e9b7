/**
 * spec 1, Tenant domain: a tenant's public URL (platform.get_tenant `url`, the live chat embed code)
 * keeps APP_URL's scheme and port and puts the tenant's subdomain in front of the host only when
 * that host is ROOT_DOMAIN, where `<sub>.<ROOT_DOMAIN>` reaches the platform.
 */
import { tenantUrl } from '../../core/kernel/tenancy/tenant-url';

const domains = [{ domain: 'k3x9q2ab', kind: 'id' }, { domain: 'acme', kind: 'alias' }];

describe('spec 1 Tenant domain: the tenant URL from APP_URL', () => {
  test('the alias (before the id) under ROOT_DOMAIN, with the scheme and port of APP_URL', () => {
    expect(tenantUrl('http://localhost:3000', 'localhost', domains)).toBe('http://acme.localhost:3000');
    expect(tenantUrl('https://mandi.example', 'mandi.example', domains)).toBe('https://acme.mandi.example');
    expect(tenantUrl('https://Mandi.Example:8443/base', 'mandi.example', domains)).toBe('https://acme.mandi.example:8443');
    expect(tenantUrl('http://localhost:3000', 'localhost', domains.slice(0, 1))).toBe('http://k3x9q2ab.localhost:3000');
  });

  test('a host that is not ROOT_DOMAIN, or a tenant without domains, keeps APP_URL as it is', () => {
    expect(tenantUrl('http://127.0.0.1:3000', 'localhost', domains)).toBe('http://127.0.0.1:3000');
    expect(tenantUrl('https://chat.shop.example', 'mandi.example', domains)).toBe('https://chat.shop.example');
    expect(tenantUrl('http://localhost:3000', 'localhost', [])).toBe('http://localhost:3000');
  });
});
