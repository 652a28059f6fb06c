/** Names inside the exports' zips (zip-stream.server.ts writes them). */

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const NAME_MAX = 120;

/**
 * A file name that is safe in any unzip program on any system, from a name a person chose: no path
 * separators or characters Windows refuses, no control or direction-override characters, no
 * leading or trailing dots and spaces (so never "." or ".."), not a reserved Windows device name, at
 * most 120 characters with the extension kept. Empty after that: `fallback`.
 */
export function safeFileName(name: string, fallback: string): string {
  let safe = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/[/\\:*?"<>|]/g, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  if (!safe) safe = fallback;
  if (WINDOWS_RESERVED.test(safe)) safe = `_${safe}`;
  const characters = [...safe];
  if (characters.length > NAME_MAX) {
    const dot = safe.lastIndexOf(".");
    const extension = dot > 0 && safe.length - dot <= 12 ? safe.slice(dot) : "";
    safe =
      characters
        .slice(0, NAME_MAX - [...extension].length)
        .join("")
        .replace(/[\s.]+$/g, "") + extension;
  }
  return safe;
}

/**
 * Names unique within a zip's folder (compared without case, as Windows and macOS do): the second
 * "Notes.md" is "Notes (2).md". `take("content", title, ".md")` → "content/Notes.md".
 */
export class ZipNames {
  readonly #taken = new Set<string>();

  take(folder: string, name: string, fallback = "file"): string {
    const safe = safeFileName(name, fallback);
    const dot = safe.lastIndexOf(".");
    const [base, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
    for (let n = 1; ; n++) {
      const candidate = `${folder ? `${folder}/` : ""}${n === 1 ? safe : `${base} (${n})${extension}`}`;
      const key = candidate.toLowerCase();
      if (!this.#taken.has(key)) {
        this.#taken.add(key);
        return candidate;
      }
    }
  }
}
