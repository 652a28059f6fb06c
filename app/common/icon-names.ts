/**
 * The interface icons (lucide-react), by lucide name: the set the sprite (GET /icons.svg,
 * routes/icons-sprite.ts) draws. The browser never loads this list; ~/common/icons has what it needs.
 */
export const ICON_NAMES = [
  "layout-dashboard",
  "pen-line",
  "bot",
  "palette",
  "music",
  "clapperboard",
  "film",
  "image",
  "mic",
  "audio-lines",
  "folder-open",
  "camera",
  "sparkles",
  "library",
  "square",
  "menu",
  "x",
  "moon",
  "sun",
  "log-out",
  "arrow-left",
  "house",
  "plus",
  "pencil",
  "trash-2",
  "download",
  "cloud-upload",
  "play",
  "pause",
  "repeat",
  "rotate-ccw",
  "save",
  "check",
  "grip-vertical",
  "arrow-up",
  "arrow-down",
  "flask-conical",
  "eraser",
  "brush",
  "circle-user",
  "wand-sparkles",
  "send",
  "file-up",
  "chevron-right",
  "switch-camera",
  "paperclip",
] as const;

export type IconName = (typeof ICON_NAMES)[number];

/** A short, stable fingerprint of the set: a sprite with new icons is a new URL (the old one stays cached). */
export function iconSetFingerprint(names: readonly string[] = ICON_NAMES): string {
  return fingerprint(names.join());
}

function fingerprint(text: string): string {
  let hash = 5381;
  for (let index = 0; index < text.length; index++) hash = ((hash * 33) ^ text.charCodeAt(index)) >>> 0;
  return hash.toString(36).slice(0, 5);
}
