/** Server-sent events of a vendor's streamed answer, as {event, data} in order (comments skipped). */
export function sseEvents(body: string): Array<{ event: string | null; data: string }> {
  const out: Array<{ event: string | null; data: string }> = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) out.push({ event, data: data.join('\n') });
  }
  return out;
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
