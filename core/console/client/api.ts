/**
 * Calls to the platform's API (same origin, /api/v1) with the session's bearer token and X-Tenant.
 * A refusal becomes an ApiError carrying the platform's `{message, code, details}` (or the spec's
 * `{message, errors}` validation shape) so pages show what the API said, never a generic failure.
 */
import { currentSession, setSession } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details?: Record<string, unknown>,
    /** A field map (`{name: [message]}`), or the workflows' list of messages (spec 2: activate, test). */
    readonly errors?: Record<string, string[]> | string[],
    /** The whole answer, for refusals that carry data (spec 2: a simulation that could not run is a 422 with its result). */
    readonly body?: unknown,
  ) {
    super(message);
  }

  /** Reasons the API gave (a refused promotion's `details.reasons`, a definition's problems, validation messages). */
  get reasons(): string[] {
    const out: string[] = [];
    const reasons = this.details?.reasons;
    if (Array.isArray(reasons)) for (const r of reasons) out.push(typeof r === 'string' ? r : (r as { message?: string }).message ?? JSON.stringify(r));
    // A module's broken screen definition (502 SCREEN_DEFINITION_INVALID) lists its problems.
    const problems = this.details?.problems;
    if (Array.isArray(problems)) for (const p of problems) out.push(String(p));
    if (Array.isArray(this.errors)) out.push(...this.errors.map(String));
    else if (this.errors) for (const [field, msgs] of Object.entries(this.errors)) for (const m of msgs) out.push(`${field}: ${m}`);
    return out;
  }
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Tenant for this call when no session names one yet (sign-in). */
  tenant?: string;
}

export const API_PREFIX = '/api/v1';

/** The answer of one call with the session's token and tenant; a network failure is an ApiError. */
async function send(path: string, opts: CallOptions, accept: string): Promise<Response> {
  const session = currentSession();
  const headers: Record<string, string> = { Accept: accept };
  const tenant = opts.tenant ?? session?.tenant;
  if (tenant) headers['X-Tenant'] = tenant;
  if (session?.token) headers.Authorization = `Bearer ${session.token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const qs = opts.query ? new URLSearchParams(Object.entries(opts.query).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)])).toString() : '';
  const url = (path.startsWith(API_PREFIX) ? path : `${API_PREFIX}${path}`) + (qs ? `${path.includes('?') ? '&' : '?'}${qs}` : '');
  try {
    return await fetch(url, { method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'), headers, body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined });
  } catch (err) {
    throw new ApiError(0, `The platform could not be reached: ${(err as Error).message}`, 'NETWORK');
  }
}

/**
 * A download's bytes (e.g. a chat attachment): the API serves files to bearer tokens only, so a
 * plain link cannot fetch them; a refusal is read as JSON like any other.
 */
export async function apiBlob(path: string): Promise<Blob> {
  const res = await send(path, {}, '*/*');
  if (res.ok) return res.blob();
  return answer<never>(res, path);
}

export async function api<T = unknown>(path: string, opts: CallOptions = {}): Promise<T> {
  return answer<T>(await send(path, opts, 'application/json'), path);
}

/** An answer's JSON; a refusal becomes an ApiError (and a 401 ends the session). */
async function answer<T>(res: Response, path: string): Promise<T> {
  const session = currentSession();
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: kept as text */
  }
  if (!res.ok) {
    const b = (body && typeof body === 'object' ? body : {}) as { message?: string; code?: string; details?: Record<string, unknown>; errors?: Record<string, string[]> | string[] };
    // An expired or revoked token: back to sign-in, with the API's message shown there.
    if (res.status === 401 && session && !path.startsWith('/auth/login')) setSession(null);
    throw new ApiError(res.status, b.message ?? (typeof body === 'string' && body ? body : `${res.status} ${res.statusText}`), b.code, b.details, b.errors, body);
  }
  return body as T;
}
