/**
 * 16-bit PCM WAV to 16 kHz mono (spec 2, Limits: "sample rate 16 kHz mono" is what speech-to-text
 * sends on): channels averaged, then linear interpolation to 16,000 samples a second. Other WAV
 * encodings (8-bit, float) are sent as they are, with their own rate.
 */
export const TARGET_RATE = 16000;

export interface Pcm {
  rate: number;
  channels: number;
  bits: number;
  format: number;
  data: Uint8Array;
}

export function readWav(b: Uint8Array): Pcm | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let fmt: Omit<Pcm, 'data'> | null = null;
  for (let i = 12; i + 8 <= b.length; ) {
    const id = String.fromCharCode(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!);
    const size = view.getUint32(i + 4, true);
    if (id === 'fmt ' && i + 24 <= b.length) fmt = { format: view.getUint16(i + 8, true), channels: view.getUint16(i + 10, true), rate: view.getUint32(i + 12, true), bits: view.getUint16(i + 22, true) };
    if (id === 'data' && fmt) return { ...fmt, data: b.subarray(i + 8, Math.min(b.length, i + 8 + size)) };
    i += 8 + size + (size % 2);
  }
  return null;
}

/** 16 kHz mono PCM16 samples of a PCM16 WAV; null when it is not PCM16. */
export function toMono16k(pcm: Pcm): Int16Array | null {
  if (pcm.format !== 1 || pcm.bits !== 16 || pcm.channels < 1 || pcm.rate < 1) return null;
  const view = new DataView(pcm.data.buffer, pcm.data.byteOffset, pcm.data.byteLength);
  const frames = Math.floor(pcm.data.length / (2 * pcm.channels));
  const mono = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < pcm.channels; c++) sum += view.getInt16((f * pcm.channels + c) * 2, true);
    mono[f] = sum / pcm.channels;
  }
  const outLength = Math.floor((frames * TARGET_RATE) / pcm.rate);
  const out = new Int16Array(outLength);
  const step = pcm.rate / TARGET_RATE;
  for (let i = 0; i < outLength; i++) {
    const at = i * step;
    const j = Math.floor(at);
    const next = j + 1 < frames ? mono[j + 1]! : mono[j]!;
    out[i] = Math.max(-32768, Math.min(32767, Math.round(mono[j]! + (next - mono[j]!) * (at - j))));
  }
  return out;
}

/** A WAV file of 16 kHz mono PCM16 samples. */
export function wavOf(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) => [...s].forEach((ch, k) => view.setUint8(at + k, ch.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, TARGET_RATE, true);
  view.setUint32(28, TARGET_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i]!, true);
  return out;
}
