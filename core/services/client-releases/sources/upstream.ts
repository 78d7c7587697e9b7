/** Reading JSON from a release source, with failures as the one error the routes turn into 502. */
import { MandiError } from '../../../kernel/errors';
import { OutboundNetworkError, outboundRequest, type OutboundRequest, type OutboundResponse } from '../../../kernel/net/outbound-request';
import { OutboundUrlError } from '../../../kernel/net/outbound-policy';

/** The release source failed (unreachable, error status, unusable answer): 502 to our client. */
export class ReleaseSourceError extends MandiError {
  constructor(message: string) {
    super('RELEASE_SOURCE_UNAVAILABLE', `The release source failed: ${message}`, 502);
  }
}

export async function upstream(url: string, req: OutboundRequest): Promise<OutboundResponse> {
  try {
    return await outboundRequest(url, req);
  } catch (err) {
    if (err instanceof OutboundNetworkError || err instanceof OutboundUrlError) throw new ReleaseSourceError(err.message);
    throw err;
  }
}

export async function upstreamJson(url: string, req: OutboundRequest): Promise<{ body: unknown; res: OutboundResponse }> {
  const res = await upstream(url, { ...req, headers: { accept: 'application/json', ...req.headers } });
  let text: string;
  try {
    text = await res.text(8 * 1024 * 1024);
  } catch (err) {
    throw new ReleaseSourceError((err as Error).message);
  }
  if (res.status !== 200) throw new ReleaseSourceError(`${new URL(url).origin} answered ${res.status}`);
  try {
    return { body: JSON.parse(text), res };
  } catch {
    throw new ReleaseSourceError(`${new URL(url).origin} did not answer with JSON`);
  }
}
