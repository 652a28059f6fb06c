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
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { contentType: "image/jpeg", extension: "jpg" };
  if (bytes.length > 12 && Buffer.from(bytes.subarray(0, 4)).toString("ascii") === "RIFF" && Buffer.from(bytes.subarray(8, 12)).toString("ascii") === "WEBP") {
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
  if (!BASE64.test(payload) || payload.length % 4 === 1) return { ok: false, message: "image_data is not valid base64" };
  const bytes = Buffer.from(payload, "base64");
  if (bytes.length > maxBytes) return { ok: false, message: "image_data must be at most 10 MiB" };
  if (!isPng(bytes)) return { ok: false, message: "image_data must be a PNG image" };
  return { ok: true, bytes };
}

/** For the media store's content check: the Content-Type of a PNG file, or null. */
export const sniffPng = (head: Uint8Array): string | null => (isPng(head) ? "image/png" : null);
