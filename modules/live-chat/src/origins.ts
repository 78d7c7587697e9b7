/**
 * Which pages may use a widget (spec 2: allowed_domains, default all domains; how it is enforced is
 * not shown, so decided here). An entry is a host name (`shop.example`), a host with port
 * (`localhost:8080`), a wildcard for subdomains (`*.shop.example`, which also matches the bare
 * domain), or a full origin (`https://shop.example`: scheme and port must match). An empty list
 * allows every page. The page is known from the browser's `Origin` header (API calls) or `Referer`
 * (the script tag), which a page cannot forge in a real browser. The sandbox has no URL class, so
 * origins are read with one strict pattern.
 */
type Origin = { scheme: string; host: string; port: string };

const ORIGIN = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:]+\])(?::([0-9]{1,5}))?(?:[/?#]|$)/i;
const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

function parse(value: string): Origin | null {
  const m = ORIGIN.exec(value.trim());
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  return { scheme, host: m[2].toLowerCase(), port: m[3] ?? DEFAULT_PORT[scheme] };
}

const same = (a: Origin, b: Origin) => a.scheme === b.scheme && a.host === b.host && a.port === b.port;

export function originAllowed(domains: readonly string[], origin: string | undefined | null): boolean {
  if (!domains.length) return true;
  const page = origin ? parse(origin) : null;
  if (!page) return false;
  return domains.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry.includes('://')) {
      const wanted = parse(entry);
      return !!wanted && same(wanted, page);
    }
    if (entry.startsWith('*.')) return page.host === entry.slice(2) || page.host.endsWith(entry.slice(1));
    const [host, port] = entry.split(':');
    return page.host === host && (port === undefined || page.port === port);
  });
}

/** The origin of a Referer URL (the page that loaded the script), or null. */
export function refererOrigin(referer: string | undefined): string | null {
  const page = referer ? parse(referer) : null;
  return page ? `${page.scheme}://${page.host}${page.port === DEFAULT_PORT[page.scheme] ? '' : `:${page.port}`}` : null;
}
