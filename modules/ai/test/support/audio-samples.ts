/**
 * Small audio files whose duration is known by construction, for the speech stand-in and tests:
 * each built byte by byte the way its container is specified.
 */
export function wav(ms: number, opts: { rate?: number; channels?: number; bits?: number } = {}): Buffer {
  const rate = opts.rate ?? 16000;
  const channels = opts.channels ?? 1;
  const bits = opts.bits ?? 16;
  const blockAlign = (channels * bits) / 8;
  const frames = Math.round((rate * ms) / 1000);
  const data = Buffer.alloc(frames * blockAlign);
  for (let i = 0; i < frames; i++) data.writeInt16LE(Math.round(Math.sin(i / 8) * 8000), i * blockAlign); // a tone
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, constant bit rate: `frames` frames of 417 bytes (26.12 ms each). */
export function mp3(frames: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.writeUInt32BE(0xfffb9064, 0);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

function oggPage(granule: bigint, serial: number, seq: number, packet: Buffer, headerType: number): Buffer {
  const head = Buffer.alloc(27 + 1);
  head.write('OggS', 0);
  head[4] = 0;
  head[5] = headerType;
  head.writeBigUInt64LE(granule, 6);
  head.writeUInt32LE(serial, 14);
  head.writeUInt32LE(seq, 18);
  head.writeUInt32LE(0, 22); // checksum: not checked by readers of duration
  head[26] = 1;
  head[27] = packet.length;
  return Buffer.concat([head, packet]);
}

/** Ogg Opus: OpusHead (pre-skip 312), tags, one audio page ending at `ms`. */
export function opus(ms: number): Buffer {
  const opusHead = Buffer.alloc(19);
  opusHead.write('OpusHead', 0);
  opusHead[8] = 1;
  opusHead[9] = 1;
  opusHead.writeUInt16LE(312, 10);
  opusHead.writeUInt32LE(48000, 12);
  const tags = Buffer.from('OpusTags\x00\x00\x00\x00\x00\x00\x00\x00', 'binary');
  const granule = BigInt(Math.round((ms * 48000) / 1000) + 312);
  return Buffer.concat([oggPage(0n, 7, 0, opusHead, 2), oggPage(0n, 7, 1, tags, 0), oggPage(granule, 7, 2, Buffer.alloc(40, 0xf8), 4)]);
}

/** FLAC: the marker and a STREAMINFO block saying `ms` at 44.1 kHz. */
export function flac(ms: number): Buffer {
  const total = Math.round((44100 * ms) / 1000);
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  const rate = 44100;
  // bytes 10..17: rate (20 bits), channels-1 (3), bits-1 (5), total samples (36)
  info[10] = (rate >> 12) & 0xff;
  info[11] = (rate >> 4) & 0xff;
  info[12] = ((rate & 0x0f) << 4) | (0 << 1) | 0; // mono; bits-1 high bit 0
  info[13] = (15 << 4) | Math.floor(total / 2 ** 32); // 16 bits per sample
  info.writeUInt32BE(total % 2 ** 32, 14);
  const blockHeader = Buffer.from([0x80, 0, 0, 34]);
  return Buffer.concat([Buffer.from('fLaC'), blockHeader, info, Buffer.alloc(64)]);
}
