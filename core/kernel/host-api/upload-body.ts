/**
 * A host.fetch body that carries an upload (`body_parts`): text parts as they are, each
 * `{upload_base64: id}` part as that upload's bytes in base64, read in the host through
 * files.read_upload as the module (so only an upload that module received in this tenant). A
 * 25 MB recording (spec 2, Limits: speech-to-text input) is 34 MB of base64: more than one crossing
 * out of the sandbox may carry, and more than the module's isolate should hold, so the module names
 * the file and the host splices it in.
 */
import type { FetchBodyPart } from '../../../sandbox';
import { busErrors } from '../bus/errors';

/** The assembled body's bound: a 25 MB upload in base64 and its JSON around it. */
export const MAX_UPLOAD_BODY_BYTES = 40 * 1024 * 1024;
const PIECE = 1024 * 1024;

type ReadUpload = (input: { upload_id: string; offset: number; length: number }) => Promise<unknown>;

export async function uploadBody(parts: FetchBodyPart[], readUpload: ReadUpload): Promise<Buffer> {
  const out: Buffer[] = [];
  let total = 0;
  const add = (b: Buffer) => {
    total += b.length;
    if (total > MAX_UPLOAD_BODY_BYTES) {
      throw busErrors.fetchBodyTooLarge(MAX_UPLOAD_BODY_BYTES);
    }
    out.push(b);
  };
  for (const part of parts) {
    if (typeof part === 'string') {
      add(Buffer.from(part, 'utf8'));
      continue;
    }
    // Pieces of whole 3-byte groups: their base64 texts join into the file's, with no padding between.
    for (let offset = 0, eof = false; !eof; ) {
      const piece = (await readUpload({ upload_id: part.upload_base64, offset, length: PIECE - (PIECE % 3) })) as { data: string; length: number; eof: boolean };
      add(Buffer.from(piece.data, 'latin1'));
      offset += piece.length;
      eof = piece.eof || piece.length === 0;
    }
  }
  return Buffer.concat(out, total);
}
