/**
 * What a file is, judged by its first bytes (DESIGN.md: type is checked by content, not by name).
 * Each sniffer gets up to SNIFF_BYTES from the start of the file and answers the Content-Type to
 * serve it with, or null when the bytes are not that kind of file.
 */
export const SNIFF_BYTES = 4096;

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

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
 * MP3: an ID3v2 tag (then anything: tags may hold large cover art), or MPEG Layer III frames. When
 * the head holds the whole first frame, the next frame must start right after it, so that a stray
 * 0xFFFB at the start of some other file does not pass.
 */
export function sniffMp3(bytes: Uint8Array): string | null {
  if (bytes.length >= 10 && ascii(bytes, 0, 3) === "ID3") {
    const [major, , , ...size] = bytes.subarray(3, 10);
    if (major >= 2 && major <= 4 && size.every((b) => b < 0x80)) return "audio/mpeg";
    return null;
  }
  const length = mp3FrameLength(bytes, 0);
  if (length === null) return null;
  if (length + 4 <= bytes.length && mp3FrameLength(bytes, length) === null) return null;
  return "audio/mpeg";
}

// ISO-BMFF brands that are audio or still images, not video.
const NON_VIDEO_BRANDS = new Set(["M4A ", "M4B ", "M4P ", "F4A ", "F4B ", "mif1", "msf1", "heic", "heix", "hevc", "hevx", "heim", "heis", "avif", "avis", "crx ", "jp2 ", "jpm ", "jpx "]);
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
