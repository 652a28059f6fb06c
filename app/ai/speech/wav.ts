/**
 * A RIFF/WAVE file around 16-bit little-endian mono PCM (what eSpeak-NG produces). The engine only
 * gives samples; browsers play this 44-byte header + samples everywhere.
 */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write("WAVE", 8, "ascii");
  wav.write("fmt ", 12, "ascii");
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(dataBytes, 40);
  // Int16Array is in the platform's byte order; WAV is little-endian, so write each sample explicitly.
  for (let i = 0; i < samples.length; i++) wav.writeInt16LE(samples[i], 44 + i * 2);
  return wav;
}

/** Reads back what encodeWav wrote (tests, and a sanity check of what we store). */
export function readWavHeader(
  wav: Uint8Array,
): { sampleRate: number; channels: number; bitsPerSample: number; dataBytes: number } | null {
  const buffer = Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  if (buffer.length < 44 || buffer.toString("ascii", 0, 4) !== "RIFF" || buffer.toString("ascii", 8, 12) !== "WAVE")
    return null;
  if (buffer.toString("ascii", 12, 16) !== "fmt " || buffer.toString("ascii", 36, 40) !== "data") return null;
  return {
    channels: buffer.readUInt16LE(22),
    sampleRate: buffer.readUInt32LE(24),
    bitsPerSample: buffer.readUInt16LE(34),
    dataBytes: buffer.readUInt32LE(40),
  };
}
