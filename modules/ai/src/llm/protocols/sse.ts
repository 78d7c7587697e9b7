/** Server-sent events of a vendor's streamed answer, read as the pieces arrive. */
export interface SseMessage {
  event: string | null;
  data: string;
}

/**
 * Splits text pieces into events: a piece may end anywhere (mid-line, mid-event), so what follows
 * the last blank line waits for the next piece. Comments and events without data are skipped.
 */
export class SseSplitter {
  private rest = '';

  push(piece: string): SseMessage[] {
    this.rest += piece;
    const blocks = this.rest.split(/\r?\n\r?\n/);
    this.rest = blocks.pop()!;
    return blocks.flatMap(toMessage);
  }

  /** The last event, when the stream ended without a blank line after it. */
  end(): SseMessage[] {
    const last = toMessage(this.rest);
    this.rest = '';
    return last;
  }
}

function toMessage(block: string): SseMessage[] {
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return data.length > 0 ? [{ event, data: data.join('\n') }] : [];
}

/** JSON.parse that says which piece of the answer was not JSON. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON`);
  }
}

/** A tool call's arguments as the vendor sent them (JSON text); {} when empty. */
export function parseArguments(text: string | undefined | null): Record<string, unknown> {
  if (!text) return {};
  const value = parseJson(text, 'a tool call\'s arguments');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error("a tool call's arguments are not a JSON object");
  return value as Record<string, unknown>;
}
