/**
 * The host end of a streamed module route (route-response.ts): the StreamSink its handler's
 * `ctx.stream` writes to, over one HTTP response.
 *
 * - Back-pressure: a write resolves once the response took it, at once while the socket keeps up,
 *   else after its 'drain'; so a handler that awaits each write runs at its reader's pace. One that
 *   does not await is refused (STREAM_BACKPRESSURE) once MAX_BUFFERED_BYTES wait for the reader,
 *   and a piece over MAX_PIECE_BYTES is refused outright: the host never holds more than about a
 *   megabyte per stream, however fast the guest writes.
 * - Headers leave with the first piece, so an error before it is still a normal JSON error.
 * - A reader that goes away rejects the waiting and later writes with STREAM_CLOSED and resolves
 *   `gone` (the sandbox then tells the guest, ctx.stream.closed); `end` removes every listener,
 *   so nothing outlives the call.
 */
import type { Response } from 'express';
import type { SseEvent, StreamFormat, StreamSink } from '../../../sandbox';
import { defineErrors, MandiError } from '../errors';
import { setAnswerContentType } from './answer-content-type';

/** Largest piece one write may carry (UTF-8 bytes, SSE framing included). */
export const MAX_PIECE_BYTES = 256 * 1024;
/** Bytes the response may hold for a slow reader before more writes are refused. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** What a stream's writes reject with; the guest sees code, message and details. */
export const streamErrors = defineErrors('streamed routes', {
  closed: {
    code: 'STREAM_CLOSED', status: 409,
    doc: "A streamed route's reader has gone, or the stream ended: stop writing and return.",
    message: () => 'The reader of this stream has gone (or the stream ended); stop writing and return.',
  },
  pieceTooLarge: {
    code: 'STREAM_CHUNK_TOO_LARGE', status: 413,
    doc: 'One write to a streamed route carried more than its limit (256 KiB): write smaller pieces.',
    message: (bytes: number) => `A stream piece may be at most ${MAX_PIECE_BYTES} bytes; this one is ${bytes}. Write it in smaller pieces.`,
    details: (bytes: number) => ({ bytes, limit: MAX_PIECE_BYTES }),
  },
  backpressure: {
    code: 'STREAM_BACKPRESSURE', status: 429,
    doc: "A streamed route wrote faster than its reader reads (1 MiB waiting): await each write before the next.",
    message: (buffered: number) =>
      `${buffered} bytes are still waiting for the reader, the most a stream may hold is ${MAX_BUFFERED_BYTES}: await each write before the next.`,
    details: (buffered: number) => ({ buffered, limit: MAX_BUFFERED_BYTES }),
  },
});

interface Waiter {
  resolve: () => void;
  reject: (e: Error) => void;
}

export class ResponseStream implements StreamSink {
  readonly gone: Promise<void>;
  private markGone!: () => void;
  private waiting: Waiter[] = [];
  /** The reader went away, or the stream ended: writes are refused. */
  private closed = false;
  /** The reader went away before the stream ended. */
  left = false;

  constructor(
    private readonly res: Response,
    readonly format: StreamFormat,
    private readonly contentType: string,
  ) {
    this.gone = new Promise((resolve) => (this.markGone = resolve));
    res.on('drain', this.onDrain);
    res.on('close', this.onClose);
  }

  /** A piece went out: the stream's answer is under way and errors can no longer be JSON. */
  get started(): boolean {
    return this.res.headersSent;
  }

  write(piece: string | SseEvent): Promise<void> {
    if (this.closed) return Promise.reject(streamErrors.closed());
    const text = typeof piece === 'string' ? piece : sseText(piece);
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_PIECE_BYTES) return Promise.reject(streamErrors.pieceTooLarge(bytes));
    const buffered = this.res.writableLength;
    if (buffered + bytes > MAX_BUFFERED_BYTES) return Promise.reject(streamErrors.backpressure(buffered));
    if (!this.res.headersSent) this.open();
    if (this.res.write(text)) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /**
   * The handler finished. Without an error the response ends; with one, an SSE stream gets an
   * `error` event before it ends, and a text stream is cut off (an unfinished chunked body is how
   * HTTP says it broke). An error before the first piece is the caller's to answer as JSON.
   */
  end(error?: unknown): void {
    const reader = !this.closed;
    this.finish();
    if (!reader) return;
    if (error === undefined) {
      if (!this.res.headersSent) this.open();
      this.res.end();
    } else if (!this.res.headersSent) {
      return;
    } else if (this.format === 'sse') {
      const { code, message } = error instanceof MandiError ? error : { code: 'INTERNAL', message: 'The stream failed.' };
      this.res.end(sseText({ event: 'error', data: JSON.stringify({ code, message }) }));
    } else {
      this.res.destroy();
    }
  }

  private open(): void {
    this.res.status(200);
    setAnswerContentType(this.res, this.format === 'sse' ? 'text/event-stream; charset=utf-8' : withCharset(this.contentType));
    // Proxies (nginx) would otherwise hold pieces back until their buffer fills.
    this.res.setHeader('Cache-Control', 'no-cache');
    this.res.setHeader('X-Accel-Buffering', 'no');
  }

  private readonly onDrain = (): void => {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w.resolve();
  };

  private readonly onClose = (): void => {
    if (this.closed) return;
    this.left = true;
    this.finish();
    this.markGone();
  };

  private finish(): void {
    this.closed = true;
    this.res.off('drain', this.onDrain);
    this.res.off('close', this.onClose);
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w.reject(streamErrors.closed());
  }
}

/** One server-sent event (WHATWG HTML, Server-sent events): each line of data its own field. */
function sseText(e: SseEvent): string {
  let out = '';
  if (e.event !== undefined) out += `event: ${e.event}\n`;
  if (e.id !== undefined) out += `id: ${e.id}\n`;
  if (e.retry !== undefined) out += `retry: ${e.retry}\n`;
  for (const line of e.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** Text streams are written as UTF-8; say so unless the route already did. */
export function withCharset(contentType: string): string {
  return /;\s*charset=/i.test(contentType) ? contentType : `${contentType}; charset=utf-8`;
}
