/**
 * A URL as the log may hold it: its secrets masked. Some links carry their credential in the path
 * (invitation links; spec 1 Email verification links; spec 2 Public webhook trigger
 * `/api/webhooks/workflows/{token}`; modules' public routes `/api/<prefix>/{token}/...`) or the query
 * (the earlier verification links' `signature`), and whoever holds one acts with it; a log reader
 * must not. The platform's logger applies this to every `url` it writes (core/kernel/logger.ts, withSafeUrls),
 * so no route has to.
 * Masked, as `:token`:
 * - the segments at the positions those links keep their credential, whatever is there (a token one
 *   character off is nearly the secret still);
 * - any segment, and any query value, shaped like a token: 20 or more URL-safe characters, which is
 *   every token, hash and signature the platform or a module issues (ids of that shape too, such as
 *   UUIDs: a log cannot tell them from secrets);
 * - the value of any query parameter named like a secret (`token`, `code`, `signature`, `api_key`...).
 */
const MASK = ':token';

/** Routes match paths in any case (express's default), and so do these. */
const SECRET_POSITIONS = [
  /^(\/api\/v1\/invitations\/)[^/]+/i,
  /^((?:\/api\/v1)?\/email\/verify\/[^/]+\/)[^/]+/i,
  /^(\/api\/webhooks\/workflows\/)[^/]+/i,
];
const TOKEN_SHAPED = /^[A-Za-z0-9_+=-]{20,}$/;
const SECRET_PARAM = /(?:^|[_-])(?:token|code|signature|sig|secret|password|hash|key|grant|otp)$/i;

export function logSafeUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  for (const position of SECRET_POSITIONS) path = path.replace(position, `$1${MASK}`);
  path = path
    .split('/')
    .map((segment) => (TOKEN_SHAPED.test(decoded(segment)) ? MASK : segment))
    .join('/');
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decoded(pair.slice(0, eq)).replace(/\[.*$/, '');
      return SECRET_PARAM.test(name) || TOKEN_SHAPED.test(decoded(pair.slice(eq + 1))) ? `${pair.slice(0, eq)}=${MASK}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** The text a route would see (a `+` kept: it may be a token's); a malformed escape is kept as written. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
