/**
 * Duration of an audio file from its own bytes (spec 2: TTS duration_ms "computed from the audio";
 * STT's 5-minute limit): WAV from its fmt and data chunks, FLAC from STREAMINFO, Ogg (Opus or
 * Vorbis) from the last page's granule position, MP3 from a Xing/Info frame count or, for constant
 * bit rate, from the size, MP4/M4A from the mvhd box, WebM from the Segment Info Duration. Null
 * when the container does not say (e.g. a live-recorded WebM without a Duration element).
 */
export type AudioFormat = 'wav' | 'mp3' | 'opus' | 'ogg' | 'flac' | 'm4a' | 'mp4' | 'webm';

const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const u32le = (b: Uint8Array, i: number) => b[i]! + (b[i + 1]! << 8) + (b[i + 2]! << 16) + ((b[i + 3]! << 24) >>> 0);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

/** The container, from its magic bytes. */
export function sniff(b: Uint8Array): AudioFormat | null {
  if (b.length < 12) return null;
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE') return 'wav';
  if (ascii(b, 0, 4) === 'fLaC') return 'flac';
  if (ascii(b, 0, 4) === 'OggS') return ascii(b, 28, 8) === 'OpusHead' ? 'opus' : 'ogg';
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'webm';
  if (ascii(b, 4, 4) === 'ftyp') return ascii(b, 8, 3) === 'M4A' ? 'm4a' : 'mp4';
  if (ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0)) return 'mp3';
  return null;
}

/** The data chunk's declared size; a streamed WAV's placeholder (0 or 0xFFFFFFFF) means "to the end of the file". */
function wavMs(b: Uint8Array, totalSize: number): number | null {
  let byteRate = 0;
  for (let i = 12; i + 8 <= b.length; ) {
    const id = ascii(b, i, 4);
    const size = u32le(b, i + 4);
    if (id === 'fmt ') byteRate = u32le(b, i + 16);
    if (id === 'data') {
      const bytes = size === 0 || size === 0xffffffff ? totalSize - i - 8 : Math.min(size, totalSize - i - 8);
      return byteRate > 0 ? Math.round((bytes * 1000) / byteRate) : null;
    }
    i += 8 + size + (size % 2);
  }
  return null;
}

function flacMs(b: Uint8Array): number | null {
  // STREAMINFO is the first metadata block: sample rate (20 bits) and total samples (36 bits) at byte 18.
  if (b.length < 26) return null;
  const rate = (b[18]! << 12) | (b[19]! << 4) | (b[20]! >> 4);
  const total = (b[21]! & 0x0f) * 2 ** 32 + u32be(b, 22);
  return rate > 0 && total > 0 ? Math.round((total * 1000) / rate) : null;
}

function oggMs(b: Uint8Array, format: 'opus' | 'ogg'): number | null {
  let rate = 48000;
  let preSkip = 0;
  if (format === 'opus') preSkip = b[38]! | (b[39]! << 8);
  else if (ascii(b, 29, 6) === 'vorbis') rate = u32le(b, 40);
  // The last page's granule position is the stream's end, in samples (48 kHz for Opus).
  for (let i = b.length - 27; i >= 0; i--) {
    if (b[i] === 0x4f && ascii(b, i, 4) === 'OggS') {
      const granule = u32le(b, i + 6) + u32le(b, i + 10) * 2 ** 32;
      return rate > 0 ? Math.max(0, Math.round(((granule - preSkip) * 1000) / rate)) : null;
    }
  }
  return null;
}

const MP3_RATES = [[11025, 12000, 8000], [0, 0, 0], [22050, 24000, 16000], [44100, 48000, 32000]]; // by version bits
const MP3_KBPS_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

function mp3Ms(b: Uint8Array, totalSize: number): number | null {
  let i = 0;
  if (ascii(b, 0, 3) === 'ID3') i = 10 + ((b[6]! & 0x7f) << 21) + ((b[7]! & 0x7f) << 14) + ((b[8]! & 0x7f) << 7) + (b[9]! & 0x7f);
  for (; i + 4 <= b.length; i++) if (b[i] === 0xff && (b[i + 1]! & 0xe0) === 0xe0) break;
  if (i + 4 > b.length) return null;
  const version = (b[i + 1]! >> 3) & 3; // 3 = MPEG1, 2 = MPEG2, 0 = MPEG2.5
  const rate = MP3_RATES[version]?.[(b[i + 2]! >> 2) & 3] ?? 0;
  const kbps = (version === 3 ? MP3_KBPS_V1 : MP3_KBPS_V2)[b[i + 2]! >> 4] ?? 0;
  if (!rate || !kbps) return null;
  const samplesPerFrame = version === 3 ? 1152 : 576;
  // A Xing/Info header (VBR) carries the frame count.
  const mono = (b[i + 3]! >> 6) === 3;
  const side = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
  const x = i + 4 + side;
  const tag = ascii(b, x, 4);
  if ((tag === 'Xing' || tag === 'Info') && (b[x + 7]! & 1)) return Math.round((u32be(b, x + 8) * samplesPerFrame * 1000) / rate);
  return Math.round(((totalSize - i) * 8) / kbps);
}

function mp4Ms(head: Uint8Array, tail: Uint8Array): number | null {
  for (const b of [head, tail]) {
    for (let i = 4; i + 24 <= b.length; i++) {
      if (b[i] === 0x6d && ascii(b, i, 4) === 'mvhd') {
        const version = b[i + 4]!;
        const scale = version === 1 ? u32be(b, i + 24) : u32be(b, i + 16);
        const duration = version === 1 ? u32be(b, i + 28) * 2 ** 32 + u32be(b, i + 32) : u32be(b, i + 20);
        return scale > 0 ? Math.round((duration * 1000) / scale) : null;
      }
    }
  }
  return null;
}

function webmMs(b: Uint8Array): number | null {
  // Segment Info: TimecodeScale (2AD7B1, default 1 ms) and Duration (4489, a float in scale units).
  let scale = 1_000_000;
  for (let i = 0; i + 4 < b.length; i++) {
    if (b[i] === 0x2a && b[i + 1] === 0xd7 && b[i + 2] === 0xb1) {
      const len = b[i + 3]! & 0x7f;
      if (len >= 1 && len <= 8) {
        scale = 0;
        for (let k = 0; k < len; k++) scale = scale * 256 + b[i + 4 + k]!;
      }
    }
    if (b[i] === 0x44 && b[i + 1] === 0x89) {
      const len = b[i + 2]! & 0x7f;
      if (len !== 4 && len !== 8) continue;
      const view = new DataView(b.buffer, b.byteOffset + i + 3, len);
      const units = len === 4 ? view.getFloat32(0) : view.getFloat64(0);
      return Number.isFinite(units) && units > 0 ? Math.round((units * scale) / 1_000_000) : null;
    }
  }
  return null;
}

/**
 * `head`: the file's first bytes (64 KB is plenty); `tail`: its last bytes (Ogg, MP4 with the moov
 * box at the end); `size`: the whole file's length. For a small file pass it whole as both.
 */
export function durationMs(format: AudioFormat, head: Uint8Array, tail: Uint8Array, size: number): number | null {
  switch (format) {
    case 'wav':
      return wavMs(head, size);
    case 'flac':
      return flacMs(head);
    case 'opus':
    case 'ogg':
      return oggMs(tail.length > 0 ? concatHeadTail(head, tail) : head, format);
    case 'mp3':
      return mp3Ms(head, size);
    case 'm4a':
    case 'mp4':
      return mp4Ms(head, tail);
    case 'webm':
      return webmMs(head);
  }
}

/** Opus pre-skip is read from the head; the granule from the tail's last page. */
function concatHeadTail(head: Uint8Array, tail: Uint8Array): Uint8Array {
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}
