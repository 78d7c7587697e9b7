/**
 * Which pages may use a widget (spec 2: allowed_domains, default all domains; how it is enforced is
 * not shown, so decided here). An entry is a host name (`shop.example`), a host with port
 * (`localhost:8080`), a wildcard for subdomains (`*.shop.example`, which also matches the bare
 * domain), or a full origin (`https://shop.example`, scheme and port must match). An empty list
 * allows every page. The page is known from the browser's `Origin` header (API calls) or `Referer`
 * (the script tag), which a page cannot forge in a real browser.
 */
function parse(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export function originAllowed(domains: readonly string[], origin: string | undefined | null): boolean {
  if (!domains.length) return true;
  const url = origin ? parse(origin) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  const host = url.hostname.toLowerCase();
  return domains.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry.includes('://')) return parse(entry)?.origin === url.origin;
    if (entry.startsWith('*.')) return host === entry.slice(2) || host.endsWith(entry.slice(1));
    if (entry.includes(':')) return url.host.toLowerCase() === entry;
    return host === entry;
  });
}

/** The origin of a Referer URL (the page that loaded the script), or null. */
export function refererOrigin(referer: string | undefined): string | null {
  const url = referer ? parse(referer) : null;
  return url ? url.origin : null;
}
