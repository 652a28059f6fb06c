/**
 * docs/api.md#every-call: with no image model configured, the image generator builds a
 * stock-photo search link (800x600) from the prompt after 2 s. Our server never fetches it; the page
 * shows it as the resulting image (the browser loads it from LoremFlickr, the one outside origin the
 * CSP's img-src allows) with the link below it. Shared by the screen and server.
 *
 * The link is LoremFlickr's keyword search (https://loremflickr.com/{width}/{height}/{keywords}),
 * which answers with a photo tagged with any of the keywords. source.unsplash.com, which did the
 * same, was retired in 2024.
 */
export const STOCK_PHOTO_SIZE = { width: 800, height: 600 };
export const PLACEHOLDER_DELAY_MS = 2000;
export const STOCK_PHOTO_BASE = "https://loremflickr.com";

/** More keywords only make the photo match any one of them more loosely. */
const MAX_KEYWORDS = 5;
/** Longer "words" are noise (pasted hashes, URLs), not something a photo is tagged with. */
const MAX_KEYWORD_LENGTH = 32;
/** What the link searches for when the prompt has no meaningful word. */
export const DEFAULT_STOCK_KEYWORD = "abstract";

/** Words that say nothing about what is in a photo. */
const STOP_WORDS = new Set(
  (
    "a an the and or but of in on at to for from with without by into onto over under near as is are was were be been " +
    "this that these those it its my your our their his her some any very just please make me show give create generate " +
    "image picture photo photograph"
  ).split(" "),
);

/** The prompt's meaningful words: lower-cased, letters and digits only, no stop words, no repeats, a handful at most. */
export function stockPhotoKeywords(prompt: string): string[] {
  const keywords: string[] = [];
  for (const word of prompt.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 || word.length > MAX_KEYWORD_LENGTH || STOP_WORDS.has(word) || keywords.includes(word))
      continue;
    keywords.push(word);
    if (keywords.length === MAX_KEYWORDS) break;
  }
  return keywords;
}

export function stockPhotoSearchUrl(prompt: string): string {
  const keywords = stockPhotoKeywords(prompt);
  const path = (keywords.length ? keywords : [DEFAULT_STOCK_KEYWORD]).map(encodeURIComponent).join(",");
  return `${STOCK_PHOTO_BASE}/${STOCK_PHOTO_SIZE.width}/${STOCK_PHOTO_SIZE.height}/${path}`;
}
