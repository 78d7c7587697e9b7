/**
 * How the `mandi module publish|install|…` and `mandi ring …` commands reach a platform: its base
 * URL (--url or MANDI_URL) and a bearer token (--token or MANDI_TOKEN: a super admin's access token,
 * or a publisher token for publishing). Every failure becomes a CliError whose exit code says what
 * kind of failure it was (see EXIT).
 */

/** Exit codes of the platform commands. */
export const EXIT = {
  ok: 0,
  /** The platform refused the request or the operation failed (4xx other than 401/403, or a failed job). */
  refused: 1,
  /** Bad usage: a missing URL or token, an unreadable file, a malformed argument. */
  usage: 2,
  /** The token was refused (401) or may not do this (403). */
  auth: 3,
  /** The platform could not be reached or failed (5xx). */
  unavailable: 4,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** Lines printed under the message (reasons, details). */
    readonly lines: string[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface ConnectionOptions {
  url?: string;
  token?: string;
}

interface ErrorBody {
  message?: string;
  code?: string;
  details?: { reasons?: Array<{ kind?: string; message?: string }>; operation_id?: string; errors?: Record<string, string[]> } & Record<string, unknown>;
  errors?: Record<string, string[]>;
}

/** The lines that explain a refusal: each reason, each field error. */
export function explain(body: ErrorBody | undefined): string[] {
  const lines: string[] = [];
  for (const r of body?.details?.reasons ?? []) lines.push(`${r.kind ? `[${r.kind}] ` : ''}${r.message}`);
  for (const [field, messages] of Object.entries(body?.errors ?? body?.details?.errors ?? {})) for (const m of messages) lines.push(`${field}: ${m}`);
  if (body?.details?.operation_id) lines.push(`operation ${body.details.operation_id}`);
  return lines;
}

export class ApiClient {
  readonly url: string;
  private readonly token: string;

  constructor(opts: ConnectionOptions, env: NodeJS.ProcessEnv = process.env) {
    const url = opts.url ?? env.MANDI_URL;
    const token = opts.token ?? env.MANDI_TOKEN;
    if (!url) throw new CliError('no platform URL: pass --url or set MANDI_URL (e.g. http://localhost:3000)', EXIT.usage);
    if (!token) throw new CliError('no token: pass --token or set MANDI_TOKEN (a super admin access token or a publisher token)', EXIT.usage);
    this.url = url.replace(/\/+$/, '');
    this.token = token;
  }

  async request<T = any>(method: string, path: string, opts: { json?: unknown; body?: Buffer; headers?: Record<string, string> } = {}): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json', ...(opts.headers ?? {}) };
    let body: string | Uint8Array | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.body) {
      headers['content-type'] ??= 'application/gzip';
      body = new Uint8Array(opts.body);
    }
    let res: Response;
    try {
      res = await fetch(`${this.url}/api/v1${path}`, { method, headers, body });
    } catch (err) {
      throw new CliError(`cannot reach ${this.url}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`, EXIT.unavailable);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.ok) return parsed as T;
    const err = parsed as ErrorBody | undefined;
    const message = `${err?.message ?? `HTTP ${res.status}`}${err?.code ? ` (${err.code})` : ''}`;
    const exitCode = res.status === 401 || res.status === 403 ? EXIT.auth : res.status >= 500 ? EXIT.unavailable : EXIT.refused;
    throw new CliError(message, exitCode, explain(err));
  }
}
