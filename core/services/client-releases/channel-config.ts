/**
 * Release sources (spec 1, Client releases, PUT /cli/channel) and their configuration:
 *   static       manifest_url                                 (HTTPS URL of a schema_version 1 manifest)
 *   bucket       bucket, region, manifest_key, endpoint?      (a public object in an S3-style bucket;
 *                                                             endpoint for S3-compatible stores)
 *   hosted_repo  project, api_url, token                      (a GitLab-compatible releases API, tags cli/v<semver>)
 * Platform defaults come from the CLI_RELEASES_* variables (adapters hosted_repo or static).
 */
import type { Config } from '../../config';
import { ValidationError, type FieldErrors } from '../../kernel/errors';
import { OutboundUrlError, checkOutboundUrl, httpsPolicy, type OutboundPolicy } from '../../kernel/net/outbound-policy';

export const ADAPTERS = ['static', 'bucket', 'hosted_repo'] as const;
export type Adapter = (typeof ADAPTERS)[number];

export type ChannelConfig =
  | { adapter: 'static'; manifest_url: string }
  | { adapter: 'bucket'; bucket: string; region: string; manifest_key: string; endpoint?: string }
  | { adapter: 'hosted_repo'; project: string; api_url: string };

/** A channel ready to use: its config, the repository token in clear (memory only), and whether the operator set it. */
export interface ChannelSource {
  config: ChannelConfig;
  token?: string;
  policy: OutboundPolicy;
}

const KEYS: Record<Adapter, string[]> = {
  static: ['manifest_url'],
  bucket: ['bucket', 'region', 'manifest_key', 'endpoint'],
  hosted_repo: ['project', 'api_url', 'token'],
};

export interface ValidatedChannel {
  config: ChannelConfig;
  /** A new token to store (hosted_repo); undefined keeps the stored one. */
  token: string | undefined;
}

/**
 * Checks a PUT /cli/channel body. A hosted_repo token may be left out only when the stored channel is
 * hosted_repo with the same api_url: otherwise the old token would be sent to a host it was never meant for.
 */
export function validateChannel(body: unknown, policy: OutboundPolicy, stored?: { config: ChannelConfig; hasToken: boolean }): ValidatedChannel {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (typeof b.adapter !== 'string' || !(ADAPTERS as readonly string[]).includes(b.adapter)) {
    fail('adapter', `The adapter must be one of ${ADAPTERS.join(', ')}.`);
    throw new ValidationError(errors);
  }
  const adapter = b.adapter as Adapter;
  const c = b.config && typeof b.config === 'object' && !Array.isArray(b.config) ? (b.config as Record<string, unknown>) : undefined;
  if (!c) {
    fail('config', 'The config field is required and must be an object.');
    throw new ValidationError(errors);
  }
  for (const key of Object.keys(c)) if (!KEYS[adapter].includes(key)) fail(`config.${key}`, `The ${key} field is not allowed for adapter ${adapter}.`);

  const text = (key: string, opts: { required?: boolean; max: number; pattern?: RegExp; hint?: string }): string | undefined => {
    const v = c[key];
    if (v === undefined || v === null || v === '') {
      if (opts.required) fail(`config.${key}`, `The ${key} field is required.`);
      return undefined;
    }
    if (typeof v !== 'string' || v.length > opts.max) return void fail(`config.${key}`, `The ${key} must be a string of at most ${opts.max} characters.`);
    if (opts.pattern && !opts.pattern.test(v)) return void fail(`config.${key}`, `The ${key} ${opts.hint}.`);
    return v;
  };
  const url = (key: string, required: boolean): string | undefined => {
    const v = text(key, { required, max: 2048 });
    if (v === undefined) return undefined;
    try {
      return checkOutboundUrl(v, policy).href;
    } catch (err) {
      if (!(err instanceof OutboundUrlError)) throw err;
      return void fail(`config.${key}`, `The ${key} ${err.message}.`);
    }
  };

  let config: ChannelConfig | undefined;
  let token: string | undefined;
  if (adapter === 'static') {
    const manifestUrl = url('manifest_url', true);
    if (manifestUrl) config = { adapter, manifest_url: manifestUrl };
  } else if (adapter === 'bucket') {
    const bucket = text('bucket', { required: true, max: 63, pattern: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, hint: 'must be a bucket name (3-63 lowercase letters, digits, dots and hyphens)' });
    const region = text('region', { required: true, max: 32, pattern: /^[a-z0-9][a-z0-9-]*[a-z0-9]$/, hint: 'must be a region such as eu-west-1' });
    const key = text('manifest_key', { required: true, max: 1024, pattern: /^[^/][\x20-\x7e]*$/, hint: 'must be an object key such as cli/manifest.json' });
    const endpoint = url('endpoint', false);
    if (bucket && region && key) config = { adapter, bucket, region, manifest_key: key, ...(endpoint ? { endpoint: endpoint.replace(/\/+$/, '') } : {}) };
  } else {
    const project = text('project', { required: true, max: 255, pattern: /^[\w.-]+(\/[\w.-]+)*$/, hint: 'must be a project path such as group/mandi-cli or a numeric id' });
    const apiUrl = url('api_url', true)?.replace(/\/+$/, '');
    token = text('token', { max: 1024 });
    const keepsToken = stored?.config.adapter === 'hosted_repo' && stored.hasToken && stored.config.api_url === apiUrl;
    if (!token && apiUrl && !keepsToken) fail('config.token', 'The token field is required (it may be left out only to keep the stored token for the same api_url).');
    if (project && apiUrl) config = { adapter, project, api_url: apiUrl };
  }
  if (Object.keys(errors).length || !config) throw new ValidationError(Object.keys(errors).length ? errors : { config: ['The config is invalid.'] });
  return { config, token };
}

/** The platform default channel from the CLI_RELEASES_* variables, or undefined when none is set. */
export function platformDefault(config: Pick<Config, 'env' | 'cliReleases'>): ChannelSource | undefined {
  const r = config.cliReleases;
  // The operator set these URLs: an internal repository host on a private address is normal.
  const policy = httpsPolicy(config.env, true);
  if (r.defaultAdapter === 'static') {
    if (!r.staticManifestUrl) throw new Error('CLI_RELEASES_DEFAULT_ADAPTER=static needs CLI_RELEASES_STATIC_MANIFEST_URL');
    return { config: { adapter: 'static', manifest_url: checkedEnvUrl('CLI_RELEASES_STATIC_MANIFEST_URL', r.staticManifestUrl, policy) }, policy };
  }
  if (r.defaultAdapter === 'hosted_repo') {
    if (!r.repoProject || !r.repoApiUrl) throw new Error('CLI_RELEASES_DEFAULT_ADAPTER=hosted_repo needs CLI_RELEASES_REPO_PROJECT and CLI_RELEASES_REPO_API_URL');
    const apiUrl = checkedEnvUrl('CLI_RELEASES_REPO_API_URL', r.repoApiUrl, policy).replace(/\/+$/, '');
    return { config: { adapter: 'hosted_repo', project: r.repoProject, api_url: apiUrl }, token: r.repoToken, policy };
  }
  return undefined;
}

function checkedEnvUrl(name: string, value: string, policy: OutboundPolicy): string {
  try {
    return checkOutboundUrl(value, policy).href;
  } catch (err) {
    throw new Error(`${name} ${(err as Error).message}`);
  }
}
