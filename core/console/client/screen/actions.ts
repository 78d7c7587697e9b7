/**
 * Action types (spec 1): navigate, api-call, open-modal, open-sheet, share, copy, call, email,
 * refresh, back, external-url. Any action may carry `confirm` {title, message}; string fields accept
 * `{{key}}` placeholders filled from the row's data. An api-call's result or error is shown.
 */
import { api, ApiError } from '../api';
import { confirmDialog, toast } from '../dialogs';
import { navigate } from '../router';
import { fill, isObject, type Row } from './values';

export interface Action extends Row {
  type: string;
  confirm?: { title?: string; message?: string };
}

export interface ActionHost {
  refresh(screenId?: string): void;
  open(screenId: string, as: 'modal' | 'sheet', row: Row): void;
}

export const ACTION_TYPES = ['navigate', 'api-call', 'open-modal', 'open-sheet', 'share', 'copy', 'call', 'email', 'refresh', 'back', 'external-url'];

/** A screen route (`/orders/{{id}}`) as the console's URL; params become the query. */
export function routeUrl(route: string, params?: Row): string {
  const path = route.startsWith('/m/') || route === '/m' ? route : `/m${route.startsWith('/') ? '' : '/'}${route}`;
  const qs = params ? new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, String(v)])).toString() : '';
  return qs ? `${path}?${qs}` : path;
}

export async function runAction(raw: unknown, row: Row, host: ActionHost): Promise<void> {
  if (!isObject(raw) || typeof raw.type !== 'string') return toast('error', 'This action is malformed: it has no type.');
  const action = fill(raw as Action, row);
  if (action.confirm && !(await confirmDialog(action.confirm.title ?? 'Are you sure?', action.confirm.message ?? ''))) return;
  const text = String(action.text ?? action.value ?? '');
  switch (action.type) {
    case 'navigate':
      return navigate(routeUrl(String(action.route ?? '/'), isObject(action.params) ? action.params : undefined));
    case 'api-call': {
      const endpoint = String(action.endpoint ?? '');
      try {
        const result = await api<Row>(endpoint, { method: String(action.method ?? 'POST').toUpperCase(), body: action.body ?? (String(action.method ?? 'POST').toUpperCase() === 'GET' ? undefined : {}) });
        reportResult(result, action.success_message);
        host.refresh();
      } catch (err) {
        const e = err as ApiError;
        toast('error', e.message, e.reasons);
      }
      return;
    }
    case 'open-modal':
    case 'open-sheet':
      return host.open(String(action.screen_id ?? ''), action.type === 'open-modal' ? 'modal' : 'sheet', row);
    case 'share':
      if (navigator.share) return void navigator.share({ text }).catch(() => undefined);
      return copy(text);
    case 'copy':
      return copy(text);
    case 'call':
      return void (location.href = `tel:${encodeURIComponent(String(action.value ?? ''))}`);
    case 'email':
      return void (location.href = `mailto:${String(action.value ?? '')}`);
    case 'refresh':
      return host.refresh(typeof action.screen_id === 'string' ? action.screen_id : undefined);
    case 'back':
      return history.back();
    case 'external-url': {
      const url = String(action.url ?? '');
      if (!/^https?:\/\//i.test(url)) return toast('error', `Not opened: "${url}" is not an http(s) address.`);
      return void window.open(url, '_blank', 'noopener,noreferrer');
    }
    default:
      toast('error', `Unknown action type "${action.type}".`);
  }
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast('ok', 'Copied.');
  } catch {
    toast('error', 'The browser did not allow copying.');
  }
}

/** An action's result as a toast: its message (or the action's success_message) and a few of its fields. */
export function reportResult(result: unknown, successMessage?: unknown): void {
  const message = isObject(result) && typeof result.message === 'string' ? result.message : 'Done.';
  toast('ok', typeof successMessage === 'string' ? successMessage : message, resultLines(result));
}

/** A few readable lines of an action's result (`{data: {...}}`). */
function resultLines(result: unknown): string[] {
  const data = isObject(result) && 'data' in result ? result.data : result;
  if (!isObject(data)) return data === null || data === undefined ? [] : [String(data)];
  return Object.entries(data).filter(([, v]) => v === null || typeof v !== 'object').slice(0, 6).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`);
}
