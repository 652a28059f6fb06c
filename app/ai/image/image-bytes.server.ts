import sharp from "sharp";
import { ProviderError, type Capability } from "~/ai/errors.server";
import type { GeneratedImage } from "./image.server";
import { imageTypeOf } from "~/lib/storage/file-signatures";

/** A generated image as we store it: PNG, whatever the provider sent (PNG, JPEG or WebP); anything else is a bad answer. */
export async function storedPng(
  bytes: Buffer | null,
  capability: Capability,
  provider: string,
  maxBytes: number,
): Promise<GeneratedImage> {
  if (!bytes || bytes.length === 0 || bytes.length > maxBytes)
    throw new ProviderError(capability, provider, "bad_response", "no image in the answer");
  const type = imageTypeOf(bytes);
  if (!type)
    throw new ProviderError(capability, provider, "bad_response", "the answer is not a PNG, JPEG or WebP image");
  if (type.contentType === "image/png") return { bytes, contentType: "image/png", extension: "png" };
  try {
    const png = await sharp(bytes, { limitInputPixels: 8192 * 8192 })
      .png()
      .toBuffer();
    return { bytes: png, contentType: "image/png", extension: "png" };
  } catch {
    throw new ProviderError(capability, provider, "bad_response", "the image could not be decoded");
  }
}

/**
 * The sketch as a diffusion server's starting picture: transparent areas on white (they would read
 * as black), scaled to fit width x height with its own proportions, sides a multiple of 8 (what the
 * models' latent space needs).
 */
export async function sketchForDiffusion(
  png: Buffer,
  width: number,
  height: number,
): Promise<{ png: Buffer; width: number; height: number }> {
  const meta = await sharp(png, { limitInputPixels: 4096 * 4096 }).metadata();
  const scale = Math.min(width / (meta.width ?? width), height / (meta.height ?? height));
  const fit = (side: number, max: number) => Math.max(64, Math.min(max, Math.round((side * scale) / 8) * 8));
  const size = { width: fit(meta.width ?? width, width), height: fit(meta.height ?? height, height) };
  const bytes = await sharp(png, { limitInputPixels: 4096 * 4096 })
    .flatten({ background: "#ffffff" })
    .resize({ ...size, fit: "fill" })
    .png()
    .toBuffer();
  return { png: bytes, ...size };
}

/** The Authorization header for a diffusion server: `user:password` (AUTOMATIC1111's --api-auth) as Basic, a token as Bearer. */
export function diffusionAuthorization(apiKey: string | null): Record<string, string> {
  if (!apiKey) return {};
  return {
    Authorization: apiKey.includes(":") ? `Basic ${Buffer.from(apiKey).toString("base64")}` : `Bearer ${apiKey}`,
  };
}
