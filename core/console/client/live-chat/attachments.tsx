/**
 * Files in messages, in the inbox (live chat README, Attachments): a message's file as its name, size
 * and a download, and a thumbnail for a raster image. The API serves every file as a download
 * (application/octet-stream, `Content-Disposition: attachment`) to bearer tokens, so the bytes are
 * fetched with the session and shown from memory: a thumbnail is a data: URL of the type the module
 * checked by the file's bytes, and only PNG, JPEG, GIF or WebP ever is (never SVG or HTML, which the
 * module refuses anyway); nothing is rendered from the platform's origin.
 */
import { useEffect, useState } from 'preact/hooks';
import { apiBlob, ApiError } from '../api';
import { toast } from '../dialogs';
import type { Attachment } from './chat';

const RASTER = /^image\/(png|jpeg|gif|webp)$/;

export const fileSize = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** A file's bytes in base64, as the attachment routes take them. */
export const base64Of = (file: Blob): Promise<string> =>
  new Promise((ok, fail) => {
    const reader = new FileReader();
    reader.onload = () => ok(String(reader.result).replace(/^[^,]*,/, ''));
    reader.onerror = () => fail(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

export function AttachmentView({ a }: { a: Attachment }) {
  const [thumb, setThumb] = useState<string>();
  useEffect(() => {
    if (!RASTER.test(a.content_type)) return;
    apiBlob(a.url).then(base64Of).then((data) => setThumb(`data:${a.content_type};base64,${data}`), () => undefined);
  }, [a.url]);
  const download = async () => {
    try {
      const href = URL.createObjectURL(await apiBlob(a.url));
      const link = document.createElement('a');
      link.href = href;
      link.download = a.name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch (err) {
      toast('error', (err as ApiError).message);
    }
  };
  return (
    <div class="msg-file" data-attachment={a.id}>
      {thumb && <img class="msg-thumb" src={thumb} alt={a.name} data-thumb />}
      <span class="msg-file-line">
        <button type="button" class="link" data-download aria-label={`Download ${a.name}`} onClick={download}>{a.name}</button>
        <span class="muted" data-size>{fileSize(a.size)}</span>
      </span>
    </div>
  );
}
