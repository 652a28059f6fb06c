/** Small media files for tests, built from their format's first bytes (no fixtures to ship). */

/** One MPEG-1 Layer III frame header (128 kbps, 44.1 kHz, no padding): frames are 417 bytes long. */
const MP3_FRAME_HEADER = [0xff, 0xfb, 0x90, 0x00];
const MP3_FRAME_BYTES = 417;

/** `frames` silent MP3 frames: passes the frame-sync check (the next frame starts where it should). */
export function mp3Frames(frames = 3): Buffer {
  const buffer = Buffer.alloc(MP3_FRAME_BYTES * frames);
  for (let i = 0; i < frames; i++) Buffer.from(MP3_FRAME_HEADER).copy(buffer, i * MP3_FRAME_BYTES);
  return buffer;
}

/** An ID3v2.3 tag (empty) followed by frames, like most MP3 files. */
export function mp3WithId3(frames = 2): Buffer {
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), mp3Frames(frames)]);
}

/** An ISO-BMFF file start: an ftyp box with `brand`, then an mdat box of `payload` bytes. */
export function isoMedia(brand = "isom", payload = 64): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftyp", 4, "latin1");
  ftyp.write(brand, 8, "latin1");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write(brand === "qt  " ? "qt  qt  " : "isomiso2", 16, "latin1");
  const mdat = Buffer.alloc(8 + payload, 7);
  mdat.writeUInt32BE(8 + payload, 0);
  mdat.write("mdat", 4, "latin1");
  return Buffer.concat([ftyp, mdat]);
}

export const mp4Bytes = (payload = 64) => isoMedia("isom", payload);
export const movBytes = (payload = 64) => isoMedia("qt  ", payload);

/** An EBML header declaring DocType "webm". */
export function webmBytes(payload = 64): Buffer {
  const header = Buffer.from([
    0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d,
  ]);
  return Buffer.concat([header, Buffer.alloc(payload, 1)]);
}

/** A RIFF file of the given form type ("AVI " for video, "WAVE" for audio). */
export function riffBytes(form: "AVI " | "WAVE", payload = 64): Buffer {
  const buffer = Buffer.alloc(12 + payload);
  buffer.write("RIFF", 0, "latin1");
  buffer.writeUInt32LE(4 + payload, 4);
  buffer.write(form, 8, "latin1");
  return buffer;
}

export const PNG_BYTES = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
