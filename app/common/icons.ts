import type { IconName } from "./icon-names";

export type { IconName };

/**
 * The interface icons (lucide-react): the server draws them once into one SVG sprite (GET /icons.svg,
 * routes/icons-sprite.ts); pages point at a symbol with `<use>` (about 70 bytes an icon in the HTML
 * instead of 300-600, and no icon code in the browser's JavaScript). The version is the icon set's
 * fingerprint (iconSetFingerprint in ./icon-names; a unit test holds them equal), so a new set is a
 * new URL and the old sprite can be cached for good.
 */
export const ICON_SPRITE_URL = "/icons.svg?v=lm35o";

/** The icon of each dashboard tool (by tool id); a tool without one gets ICON_FALLBACK. */
export const TOOL_ICONS: Record<string, IconName> = {
  dashboard: "layout-dashboard",
  create: "pen-line",
  assistant: "bot",
  drawing: "palette",
  music: "music",
  aivideo: "clapperboard",
  videos: "film",
  image: "image",
  voices: "mic",
  voicememo: "audio-lines",
  projects: "folder-open",
  camera: "camera",
  capcut: "sparkles",
  library: "library",
};
export const ICON_FALLBACK: IconName = "square";
