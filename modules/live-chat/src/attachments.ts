/**
 * Attachments in messages (beyond spec 2, README Attachments), both ways: a visitor's through the
 * widget's public route, an agent's through the agent API. The host's upload store takes files only
 * on authenticated routes (a public route may not fill its disk) and keeps them until a job ends, with
 * no route serving one back, so live chat keeps its attachments itself: the bytes in base64 in its own
 * table, each file at most MAX_BYTES (the JSON body the host accepts, 1 MB, holds it in base64), at
 * most MAX_PER_CONVERSATION a conversation, of the ALLOWED types only, checked by the file's first
 * bytes as well as its declared type (an "image/png" that is HTML is refused). SVG, HTML and every
 * other type a browser could run are not on the list. They are served as application/octet-stream
 * (a download, never rendered; with the host's nosniff and sandbox CSP on every /api answer); the
 * widget and the console show images from the bytes as a Blob of the checked type.
 */
import type { HandlerContext } from '../../../sdk';
import type { NewMessage } from './conversations';
import { chatErrors, notFound, validation } from './errors';
import { nowIso, type AttachmentRow, type ConversationRow, type MessageRow } from './records';

export const MAX_BYTES = 512 * 1024;
/**
 * The input's bound on the base64, checked by the host before the module runs: the host's JSON body
 * limit (1 MB), which no larger file gets past anyway. A file between MAX_BYTES and it reaches the
 * check below, whose 413 says the limit in words a visitor or agent can act on (the widget and the
 * console show it as it is); a bound at MAX_BYTES itself would answer a bare "too many characters".
 */
export const MAX_BASE64 = 1024 * 1024;
export const MAX_PER_CONVERSATION = 20;

/** The allowed types, each with the check of its first bytes (text: no NUL byte, not opening like markup). */
const ALLOWED: Record<string, (head: Uint8Array) => boolean> = {
  'image/png': (h) => starts(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (h) => starts(h, [0xff, 0xd8, 0xff]),
  'image/gif': (h) => starts(h, [0x47, 0x49, 0x46, 0x38]),
  'image/webp': (h) => starts(h, [0x52, 0x49, 0x46, 0x46]) && starts(h.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  'application/pdf': (h) => starts(h, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  'text/plain': (h) => !h.includes(0) && !looksLikeMarkup(h),
};
export const ALLOWED_TYPES = Object.keys(ALLOWED);

const starts = (h: Uint8Array, magic: number[]) => magic.every((b, i) => h[i] === b);
/** A "text" file that opens like HTML or SVG (after blanks): refused, whatever it is called. */
const looksLikeMarkup = (h: Uint8Array) => /^\s*</.test(String.fromCharCode(...h));

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The first bytes of a base64 text (the sandbox has neither Buffer nor atob). */
function head(base64: string, bytes = 64): Uint8Array {
  const out: number[] = [];
  const text = base64.slice(0, Math.ceil(bytes / 3) * 4).replace(/=+$/, '');
  for (let i = 0; i + 1 < text.length; i += 4) {
    const n = [0, 1, 2, 3].map((k) => B64.indexOf(text[i + k] ?? 'A'));
    out.push((n[0] << 2) | (n[1] >> 4));
    if (i + 2 < text.length) out.push(((n[1] & 15) << 4) | (n[2] >> 2));
    if (i + 3 < text.length) out.push(((n[2] & 3) << 6) | n[3]);
  }
  return Uint8Array.from(out);
}

const kb = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;

export const sizeOf = (base64: string) => (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

export interface NewAttachment {
  name: string;
  content_type: string;
  data: string;
  /** A caption; the file's name when none. */
  content?: string;
}

/** Checks the file, stores it and writes its message (the file removed again if the message fails). */
export async function attach(ctx: HandlerContext, c: ConversationRow, file: NewAttachment, sender: Omit<NewMessage, 'content' | 'metadata'>, write: (fields: NewMessage) => Promise<MessageRow>): Promise<MessageRow> {
  const type = file.content_type.toLowerCase();
  const check = ALLOWED[type];
  if (!check) throw chatErrors.unsupportedType(file.content_type, ALLOWED_TYPES);
  if (!check(head(file.data))) throw validation('data', `The file is not ${type}.`);
  const size = sizeOf(file.data);
  if (size > MAX_BYTES) throw chatErrors.tooLarge(kb(size), kb(MAX_BYTES), MAX_BYTES);
  if ((await ctx.host.db.count('Attachment', { where: { conversation_id: c.id } })) >= MAX_PER_CONVERSATION) {
    throw chatErrors.attachmentLimit(MAX_PER_CONVERSATION);
  }
  const row = await ctx.host.db.create<AttachmentRow>('Attachment', {
    conversation_id: c.id, name: file.name, content_type: type, size, data: file.data, is_internal: sender.is_internal === true, created_at: nowIso(ctx),
  });
  try {
    const message = await write({ ...sender, content: file.content?.trim() || file.name, metadata: { attachment: { id: row.id, name: row.name, content_type: type, size } } });
    await ctx.host.db.update<AttachmentRow>('Attachment', { message_id: message.id }, { where: { id: row.id } });
    return message;
  } catch (err) {
    await ctx.host.db.destroy('Attachment', { where: { id: row.id } });
    throw err;
  }
}

/**
 * An attachment of this conversation (visitors: not of an internal note). Its message's broadcast
 * goes out before message_id is written, and a reader fetches at once, so message_id is not required.
 */
export async function attachmentIn(ctx: HandlerContext, conversationId: number, id: number, visitor: boolean): Promise<AttachmentRow> {
  const a = await ctx.host.db.findOne<AttachmentRow>('Attachment', { where: { id, conversation_id: conversationId } });
  if (!a || (visitor && a.is_internal)) throw notFound('Attachment', id);
  return a;
}
