/**
 * The body of a streamed host.fetch (`{stream: true}`), read one piece per guest `read()`. The
 * response stays paused between reads, so the host holds at most Node's buffer of it (16 KB plus the
 * socket's) and TCP makes a fast server wait for a slow module: nothing is buffered without bound.
 * Bounded three ways: bytes in all (`maxBytes`), time from the headers to the end (`maxMs`), and the
 * socket's idle timeout (outbound-request.ts) for a body nobody reads. `close()` destroys the socket;
 * the sandbox calls it when the call ends, whatever the guest did.
 */
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { SandboxError } from '../../../sandbox';
import type { FetchBody } from '../../../sandbox';

/** One `read()` answers at most this much, so a reply to the guest stays small. */
const MAX_PIECE = 64 * 1024;

export interface FetchBodyLimits {
  maxBytes: number;
  maxMs: number;
  target: string;
  /** Called once when the body is done with (ended, failed or closed). */
  onClose: () => void;
}

export function fetchBody(res: IncomingMessage, limits: FetchBodyLimits): FetchBody {
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let ended = false;
  let failure: SandboxError | null = null;
  let closed = false;

  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    res.destroy();
    limits.onClose();
  };
  const fail = (e: SandboxError) => {
    failure ??= e;
    close();
  };
  const timer = setTimeout(() => fail(new SandboxError('FETCH_FAILED', `fetch ${limits.target}: the body took longer than ${limits.maxMs} ms.`, { limitMs: limits.maxMs })), limits.maxMs);
  res.on('end', () => {
    ended = true;
  });
  res.on('error', (e) => fail(new SandboxError('FETCH_FAILED', `fetch ${limits.target} failed while reading: ${e.message}`)));
  // Paused: nothing flows until a read asks for it.
  res.pause();

  // Resolves when the stream has data, ended or failed.
  const ready = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('readable', done).off('end', done).off('close', done);
        resolve();
      };
      res.on('readable', done).on('end', done).on('close', done);
    });

  // Reads run one after another: a guest that asks twice at once gets the pieces in order.
  let queue: Promise<unknown> = Promise.resolve();
  const read = (): Promise<string | null> => {
    const next = queue.then(readOnce);
    queue = next.catch(() => undefined);
    return next;
  };

  async function readOnce(): Promise<string | null> {
    for (;;) {
      if (failure) throw failure;
      if (closed) return null;
      let piece = res.read() as Buffer | null;
      if (piece !== null) {
        if (piece.length > MAX_PIECE) {
          res.unshift(piece.subarray(MAX_PIECE));
          piece = piece.subarray(0, MAX_PIECE);
        }
        bytes += piece.length;
        if (bytes > limits.maxBytes) {
          fail(new SandboxError('FETCH_FAILED', `fetch ${limits.target}: the streamed body is over the limit of ${limits.maxBytes} bytes.`, { limit: limits.maxBytes }));
          throw failure!;
        }
        const text = decoder.write(piece);
        if (text !== '') return text;
        continue;
      }
      if (ended || res.readableEnded) {
        const rest = decoder.end();
        close();
        return rest === '' ? null : rest;
      }
      await ready();
      if (res.destroyed && !res.readableEnded && !failure && !closed) fail(new SandboxError('FETCH_FAILED', `fetch ${limits.target}: the connection closed before the body ended.`));
    }
  }

  return { read, close };
}
