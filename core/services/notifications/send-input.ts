/**
 * Input of the `notifications.send` bus operation (spec 1, Notification: "send to one user id, to a
 * list of user ids, or to all members of the tenant. Required input: type, title."; its schema is
 * sdk/contracts/platform/notifications.ts) and the checks a schema cannot say clearly (exactly one
 * target; action_url is a console path).
 * Beyond the spec, `holders_of`: the active members whose role holds a permission (spec 2, Graph
 * flows: a paused run is for those who may approve it), a subset of all members, so no wider reach.
 */
import { ValidationError, type FieldErrors } from '../../kernel/errors';
import type { CoreInput, notificationsSend } from '../../../sdk/contracts/platform';
import type { NotificationContent } from './notification';

/** The data payload travels in every broadcast and push; keep it a payload, not a document. */
export const MAX_DATA_BYTES = 16 * 1024;

export type Target = { kind: 'user'; userId: number } | { kind: 'users'; userIds: number[] } | { kind: 'all' } | { kind: 'holders'; permission: string };

export type SendInput = CoreInput<typeof notificationsSend>;

/** Exactly one of user_id, user_ids, all_members: true, holders_of. */
export function targetOf(input: SendInput): Target {
  const given = [input.user_id !== undefined, input.user_ids !== undefined, input.all_members === true, input.holders_of !== undefined].filter(Boolean).length;
  if (given !== 1) {
    throw new ValidationError({ recipients: ['Give exactly one of user_id, user_ids, all_members: true or holders_of.'] });
  }
  if (input.user_id !== undefined) return { kind: 'user', userId: input.user_id };
  if (input.user_ids !== undefined) return { kind: 'users', userIds: [...new Set(input.user_ids)] };
  if (input.holders_of !== undefined) return { kind: 'holders', permission: input.holders_of };
  return { kind: 'all' };
}

/**
 * A relative path inside the app ("/orders/42"), never a URL elsewhere: clients navigate to it, so a
 * scheme or a protocol-relative "//host" would turn a notification into an open redirect.
 */
export function isRelativePath(url: string): boolean {
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  return url.startsWith('/') && !url.startsWith('//') && !url.includes('\\') && !/[\u0000-\u001f\u007f]/.test(url);
}

/** The platform's API, modules' routes among it: what it answers is data, never a page to open. */
const API_PATH = /^\/api(?:\/|$)/i;

/**
 * Where a notification may lead (spec 1, Notification: action_url is a relative path): a page of
 * the app, never an API answer. The console opens it in its own tab, which holds the session, so a
 * link to a module route there would hand that route's answer the session's origin. The path is
 * resolved as a browser would (dot segments, escapes), so "/m/../api/x" is the "/api/x" it reaches.
 */
export function isConsolePath(url: string): boolean {
  if (!isRelativePath(url)) return false;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, 'http://console.invalid').pathname);
  } catch {
    return false;
  }
  return !API_PATH.test(path);
}

/** Fills the defaults of spec 1 (all null, severity info) and checks what the schema cannot. */
export function contentOf(input: SendInput): Required<NotificationContent> {
  const errors: FieldErrors = {};
  if (input.action_url != null && !isConsolePath(input.action_url)) {
    errors.action_url = ['The action url must be a console path such as "/orders/42": relative to the app, never another origin, and never under /api/ (an API answer is no page to open).'];
  }
  const data = input.data === undefined ? null : input.data;
  if (data !== null && Buffer.byteLength(JSON.stringify(data)) > MAX_DATA_BYTES) {
    errors.data = [`The data may not be larger than ${MAX_DATA_BYTES} bytes of JSON.`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return {
    type: input.type,
    title: input.title,
    body: input.body ?? null,
    module: input.module ?? null,
    icon: input.icon ?? null,
    severity: input.severity ?? 'info',
    action_url: input.action_url ?? null,
    action_label: input.action_label ?? null,
    data,
    group_key: input.group_key ?? null,
  };
}
