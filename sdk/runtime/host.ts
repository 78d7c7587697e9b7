/**
 * The `host` object a module's code receives in its handler context: the only bridge out of the
 * sandbox. Everything crosses as a copy; all functions are async except log and now.
 */
import type { Db } from './db';

export interface HostLog {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

export interface FetchInit {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  headers?: Record<string, string>;
  /** Request body as text; JSON.stringify objects yourself and set content-type. */
  body?: string;
  /**
   * Give up after this many ms (until the headers, then between pieces of the body) instead of the
   * host's 30 s, never longer: e.g. to leave time for a fallback within the call's own limit.
   */
  timeout_ms?: number;
}

export interface FetchResponse {
  status: number;
  headers: Record<string, string>;
  /** The response body as text. */
  body: string;
  /** The body parsed as JSON. */
  json<T = unknown>(): Promise<T>;
}

export interface Host {
  /**
   * Calls a bus operation: one listed in the manifest's api.consumes, a public core operation, or the
   * module's own. Rejects with a structured error {code, message, details} when refused or failed.
   */
  call<O = unknown, I = unknown>(operation: string, input?: I): Promise<O>;
  /** The module's data in the current tenant. */
  db: Db;
  /** Publishes an event (declared in events.publishes); subscribers get it at least once. */
  emit<P = unknown>(event: string, payload?: P): Promise<void>;
  log: HostLog;
  /** Current time in ms since the epoch, from the platform clock (settable in tests). */
  now(): number;
  /** HTTP request to an origin the tenant configured (e.g. an AI provider); others are refused. */
  fetch(url: string, init?: FetchInit): Promise<FetchResponse>;
}
