/**
 * The failure reason of a speech vendor's error answer: its status and own message (Google and
 * OpenAI `{error: {message}}`, ElevenLabs `{detail: {message}}`, Deepgram `{err_msg}`), scrubbed of
 * the key (../llm/vendor-error.ts).
 */
import { httpReason } from '../llm/vendor-error';

export function errorReason(status: number, body: string, key: string): string {
  let message: string | null = null;
  try {
    const e = JSON.parse(body) as { error?: { message?: unknown }; detail?: { message?: unknown } | string; err_msg?: unknown };
    const found = e.error?.message ?? (typeof e.detail === 'string' ? e.detail : e.detail?.message) ?? e.err_msg;
    message = typeof found === 'string' ? found : null;
  } catch {
    /* not JSON */
  }
  return httpReason(status, message, key);
}
