/**
 * What a file is, judged by its first bytes (DESIGN.md: type is checked by content, not by name).
 * Each sniffer gets up to SNIFF_BYTES from the start of the file and answers the Content-Type to
 * serve it with, or null when the bytes are not that kind of file.
 */
// 64 KiB: enough to see past most MP3s' ID3 tag (text frames and padding; not large cover art) to
// the first audio frame. The store holds this much per upload in memory, no more.
export const SNIFF_BYTES = 64 * 1024;

/** Bytes as Latin-1 text, in slices: a spread of 64 KiB arguments can overflow the call stack. */
function ascii(bytes: Uint8Array, start: number, length: number): string {
  const end = Math.min(bytes.length, start + length);
  let text = "";
  for (let at = start; at < end; at += 8192)
    text += String.fromCharCode(...bytes.subarray(at, Math.min(end, at + 8192)));
  return text;
}

// MPEG audio bitrates (kbps) for Layer III: [MPEG-1, MPEG-2/2.5] by bitrate index.
const LAYER3_KBPS = [
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
const SAMPLE_RATES = [
  [44100, 48000, 32000], // MPEG-1
  [22050, 24000, 16000], // MPEG-2
  [11025, 12000, 8000], // MPEG-2.5
];

/** The byte length of the MPEG audio Layer III frame whose header starts at `at`, or null if it is not one. */
function mp3FrameLength(bytes: Uint8Array, at: number): number | null {
  if (at + 4 > bytes.length) return null;
  const [b0, b1, b2] = [bytes[at], bytes[at + 1], bytes[at + 2]];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null; // 11-bit frame sync
  const version = (b1 >> 3) & 0b11; // 00 MPEG-2.5, 01 reserved, 10 MPEG-2, 11 MPEG-1
  const layer = (b1 >> 1) & 0b11; // 01 = Layer III
  if (version === 0b01 || layer !== 0b01) return null;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0b11;
  if (bitrateIndex === 0 || bitrateIndex === 0b1111 || rateIndex === 0b11) return null;
  const mpeg1 = version === 0b11;
  const kbps = LAYER3_KBPS[mpeg1 ? 0 : 1][bitrateIndex];
  const sampleRate = SAMPLE_RATES[mpeg1 ? 0 : version === 0b10 ? 1 : 2][rateIndex];
  const padding = (b2 >> 1) & 1;
  return Math.floor(((mpeg1 ? 144 : 72) * kbps * 1000) / sampleRate) + padding;
}

/**
 * Where the ID3v2 tag starting at `at` ends (its header holds the size as a syncsafe integer, plus a
 * 10-byte footer when flagged), or null when the bytes at `at` are not a valid tag header.
 */
function id3End(bytes: Uint8Array, at: number): number | null {
  if (at + 10 > bytes.length || ascii(bytes, at, 3) !== "ID3") return null;
  const [major, revision, flags, ...size] = bytes.subarray(at + 3, at + 10);
  if (major < 2 || major > 4 || revision === 0xff || size.some((b) => b >= 0x80)) return null;
  const length = (size[0] << 21) | (size[1] << 14) | (size[2] << 7) | size[3];
  const footer = major === 4 && flags & 0x10 ? 10 : 0;
  return at + 10 + length + footer;
}

/**
 * MPEG Layer III frames from `at`: a valid frame header, and when the head holds the whole frame, the
 * next frame must start right after it, so that a stray 0xFFFB in some other file does not pass.
 */
function framesAt(bytes: Uint8Array, at: number): boolean {
  const length = mp3FrameLength(bytes, at);
  if (length === null) return false;
  return at + length + 4 > bytes.length || mp3FrameLength(bytes, at + length) !== null;
}

/**
 * MP3: MPEG Layer III frames, optionally after ID3v2 tags. A tag only counts when audio follows it:
 * after the tag (and any further tags or zero padding) must come frames. A tag longer than the head
 * (large cover art) cannot be looked past and is accepted on its valid header alone.
 */
export function sniffMp3(bytes: Uint8Array): string | null {
  let at = 0;
  if (ascii(bytes, 0, 3) === "ID3") {
    // Several tags in a row happen (an editor adding its own); a handful is plenty.
    for (let tags = 0; tags < 8 && ascii(bytes, at, 3) === "ID3"; tags++) {
      const end = id3End(bytes, at);
      if (end === null) return null;
      at = end;
    }
    while (at < bytes.length && bytes[at] === 0) at++;
    // The audio starts beyond what we were given: the tag alone decides.
    if (at + 4 > bytes.length) return "audio/mpeg";
  }
  return framesAt(bytes, at) ? "audio/mpeg" : null;
}

// ISO-BMFF brands that are audio or still images, not video.
const NON_VIDEO_BRANDS = new Set([
  "M4A ",
  "M4B ",
  "M4P ",
  "F4A ",
  "F4B ",
  "mif1",
  "msf1",
  "heic",
  "heix",
  "hevc",
  "hevx",
  "heim",
  "heis",
  "avif",
  "avis",
  "crx ",
  "jp2 ",
  "jpm ",
  "jpx ",
]);
// Classic QuickTime files may start with one of these atoms instead of ftyp.
const QUICKTIME_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);

/** Video containers: MP4/MOV/3GP (ISO-BMFF), WebM/Matroska, AVI, Ogg Theora, MPEG-TS/PS, FLV, ASF/WMV. */
export function sniffVideo(bytes: Uint8Array): string | null {
  if (bytes.length < 12) return null;
  const boxSize = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  const boxType = ascii(bytes, 4, 4);
  if (boxType === "ftyp") {
    const brand = ascii(bytes, 8, 4);
    if (boxSize < 16 || NON_VIDEO_BRANDS.has(brand)) return null;
    if (brand === "qt  ") return "video/quicktime";
    if (brand.startsWith("3g2")) return "video/3gpp2";
    if (brand.startsWith("3g")) return "video/3gpp";
    return "video/mp4";
  }
  if (QUICKTIME_ATOMS.has(boxType) && (boxSize === 1 || boxSize >= 8)) return "video/quicktime";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return ascii(bytes, 0, Math.min(bytes.length, 64)).includes("webm") ? "video/webm" : "video/x-matroska";
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "AVI ") return "video/x-msvideo";
  if (ascii(bytes, 0, 4) === "OggS") return ascii(bytes, 0, bytes.length).includes("\x80theora") ? "video/ogg" : null;
  if (ascii(bytes, 0, 4) === "FLV\x01") return "video/x-flv";
  if (bytes[0] === 0x00 && bytes[1] === 0x00 && bytes[2] === 0x01 && bytes[3] === 0xba) return "video/mpeg";
  const asfGuid = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11];
  if (asfGuid.every((b, i) => bytes[i] === b)) return "video/x-ms-asf";
  // MPEG transport stream: a 0x47 sync byte every 188 bytes.
  if (bytes.length >= 377 && bytes[0] === 0x47 && bytes[188] === 0x47 && bytes[376] === 0x47) return "video/mp2t";
  return null;
}

// PNG images (generated images, sketches) and data URLs of sketches.
/**
 * What kind of image a buffer holds, by its first bytes (never by a name or a header someone sent),
 * and the checks on a sketch sent as a PNG data URL.
 */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(bytes: Uint8Array): boolean {
  // The signature, then the IHDR chunk that every PNG starts with (length 13).
  if (bytes.length < 33) return false;
  for (let i = 0; i < PNG_SIGNATURE.length; i++) if (bytes[i] !== PNG_SIGNATURE[i]) return false;
  const ihdr = Buffer.from(bytes.buffer, bytes.byteOffset + 8, 8);
  return ihdr.readUInt32BE(0) === 13 && ihdr.toString("ascii", 4, 8) === "IHDR";
}

export function imageTypeOf(bytes: Uint8Array): { contentType: string; extension: string } | null {
  if (isPng(bytes)) return { contentType: "image/png", extension: "png" };
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { contentType: "image/jpeg", extension: "jpg" };
  if (
    bytes.length > 12 &&
    Buffer.from(bytes.subarray(0, 4)).toString("ascii") === "RIFF" &&
    Buffer.from(bytes.subarray(8, 12)).toString("ascii") === "WEBP"
  ) {
    return { contentType: "image/webp", extension: "webp" };
  }
  return null;
}

/** A sketch is at most 10 MiB of PNG. */
export const SKETCH_MAX_BYTES = 10 * 1024 * 1024;

export type DataUrlCheck = { ok: true; bytes: Buffer } | { ok: false; message: string };

const PNG_DATA_URL = /^data:image\/png(?:;[a-z0-9-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `data:image/png;base64,...` whose bytes really are a PNG of at most 10 MiB. */
export function decodePngDataUrl(value: string, maxBytes = SKETCH_MAX_BYTES): DataUrlCheck {
  const prefix = PNG_DATA_URL.exec(value);
  if (!prefix) return { ok: false, message: "image_data must be a PNG data URL (data:image/png;base64,...)" };
  const payload = value.slice(prefix[0].length).replace(/\s+/g, "");
  // base64 of maxBytes is at most ceil(maxBytes / 3) * 4 characters: refuse more before decoding.
  if (payload.length > Math.ceil(maxBytes / 3) * 4) return { ok: false, message: "image_data must be at most 10 MiB" };
  if (!BASE64.test(payload) || payload.length % 4 === 1)
    return { ok: false, message: "image_data is not valid base64" };
  const bytes = Buffer.from(payload, "base64");
  if (bytes.length > maxBytes) return { ok: false, message: "image_data must be at most 10 MiB" };
  if (!isPng(bytes)) return { ok: false, message: "image_data must be a PNG image" };
  return { ok: true, bytes };
}

/** For the media store's content check: the Content-Type of a PNG file, or null. */
export const sniffPng = (head: Uint8Array): string | null => (isPng(head) ? "image/png" : null);

// WAV audio (generated speech).
/** RIFF/WAVE by its first 12 bytes. */
export function isWav(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, 12);
  return head.toString("ascii", 0, 4) === "RIFF" && head.toString("ascii", 8, 12) === "WAVE";
}

/** For the media store's content check: the Content-Type of a WAV file, or null. */
export const sniffWav = (head: Uint8Array): string | null => (isWav(head) ? "audio/wav" : null);

// Files saved to the library from the capture screens (decision 0022).
/** WebM (camera clips): an EBML header whose doctype is "webm". */
export const sniffWebm = (head: Uint8Array): string | null => (sniffVideo(head) === "video/webm" ? "video/webm" : null);

/**
 * M4A / MP4 audio (voice memos): an ISO-BMFF `ftyp` box. Browsers' MediaRecorder writes "isom" or
 * "mp42" as the brand for audio/mp4 as well, so any ftyp brand passes except still-image ones.
 */
const IMAGE_BRANDS = new Set([
  "mif1",
  "msf1",
  "heic",
  "heix",
  "hevc",
  "hevx",
  "heim",
  "heis",
  "avif",
  "avis",
  "crx ",
  "jp2 ",
  "jpm ",
  "jpx ",
]);
export function sniffM4a(head: Uint8Array): string | null {
  if (head.length < 16) return null;
  const boxSize = ((head[0] << 24) | (head[1] << 16) | (head[2] << 8) | head[3]) >>> 0;
  if (ascii(head, 4, 4) !== "ftyp" || boxSize < 16) return null;
  return IMAGE_BRANDS.has(ascii(head, 8, 4)) ? null : "audio/mp4";
}

/** A PNG's width and height from its IHDR chunk (the first bytes are enough), or null. */
export function pngDimensions(head: Uint8Array): { width: number; height: number } | null {
  if (!isPng(head)) return null;
  const view = Buffer.from(head.buffer, head.byteOffset, 24);
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

/** A PCM WAV's length in milliseconds from its header (fmt byte rate and data size), or null. */
export function wavDurationMs(head: Uint8Array): number | null {
  if (!isWav(head)) return null;
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.length);
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString("ascii", at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === "fmt " && at + 16 <= bytes.length) byteRate = bytes.readUInt32LE(at + 16);
    // A streamed WAV may say 0 or 0xFFFFFFFF for its data size: unknown.
    if (id === "data")
      return byteRate > 0 && size > 0 && size < 0xffffffff ? Math.round((size / byteRate) * 1000) : null;
    at += 8 + size + (size % 2);
  }
  return null;
}
