/**
 * SPEC §7 "Static and local-only": with no image model configured, the image generator builds a
 * stock-photo search link (800x600) from the prompt after 2 s. It is only ever shown as a link: our
 * server never fetches it, and the page never loads it as an image. Shared by the screen and server.
 */
export const STOCK_PHOTO_SIZE = { width: 800, height: 600 };
export const PLACEHOLDER_DELAY_MS = 2000;

export function stockPhotoSearchUrl(prompt: string): string {
  const query = prompt.trim().split(/\s+/).slice(0, 12).join(",");
  return `https://source.unsplash.com/${STOCK_PHOTO_SIZE.width}x${STOCK_PHOTO_SIZE.height}/?${encodeURIComponent(query)}`;
}
