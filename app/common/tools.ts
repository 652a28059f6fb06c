import { msg } from "~/common/i18n/translate";

/** The dashboard's tool buttons (labels are catalogue keys: a screen shows `t(tool.label)`) in the default order in docs/screens.md#screens-and-routes (ids are stable; order is a user preference). */
export const DASHBOARD_TOOLS = [
  { id: "create", label: msg("Create"), path: "/create" },
  { id: "assistant", label: msg("AI Assistant"), path: "/assistant" },
  { id: "drawing", label: msg("Drawing Pad"), path: "/drawing" },
  { id: "music", label: msg("Music"), path: "/music" },
  { id: "aivideo", label: msg("AI Video"), path: "/aivideo" },
  { id: "videos", label: msg("Video Hub"), path: "/videos" },
  { id: "image", label: msg("Image Generator"), path: "/image" },
  { id: "voices", label: msg("Voices"), path: "/voices" },
  { id: "voicememo", label: msg("Voice Memo"), path: "/voicememo" },
  { id: "projects", label: msg("Projects"), path: "/projects" },
  { id: "camera", label: msg("Camera"), path: "/camera" },
  { id: "capcut", label: msg("AI x AI"), path: "/capcut" },
  // After the twelve in docs/screens.md, so their order stays docs/screens.md; stored orders get it appended (normaliseToolOrder).
  { id: "library", label: msg("Library"), path: "/library" },
] as const;

export type ToolId = (typeof DASHBOARD_TOOLS)[number]["id"];
export const DEFAULT_TOOL_ORDER: ToolId[] = DASHBOARD_TOOLS.map((tool) => tool.id);

/** Keeps a stored order honest: unknown ids dropped, missing tools appended in default order. */
export function normaliseToolOrder(order: readonly string[]): ToolId[] {
  const known = new Set<string>(DEFAULT_TOOL_ORDER);
  const seen = new Set<string>();
  const result: ToolId[] = [];
  for (const id of order) {
    if (known.has(id) && !seen.has(id)) {
      seen.add(id);
      result.push(id as ToolId);
    }
  }
  for (const id of DEFAULT_TOOL_ORDER) if (!seen.has(id)) result.push(id);
  return result;
}

/** Moves one tool to a new index (used by drag, touch and the move buttons). */
export function moveTool(order: readonly ToolId[], id: ToolId, toIndex: number): ToolId[] {
  const from = order.indexOf(id);
  if (from === -1) return [...order];
  const next = order.filter((tool) => tool !== id);
  next.splice(Math.max(0, Math.min(toIndex, next.length)), 0, id);
  return next;
}

/** The plans' names are form values too: a screen shows `t(plan)`. */
export const PLANS = [msg("Free"), msg("Pro"), msg("Ultimate")] as const;
export type Plan = (typeof PLANS)[number];
export type Theme = "dark" | "light";

export interface Preferences {
  theme: Theme;
  plan: Plan;
  toolsOpen: boolean;
  toolOrder: ToolId[];
  /** The screens' language chosen in this browser (a tag of app/common/i18n/languages.ts), or null. */
  language: string | null;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: "dark",
  plan: "Free",
  toolsOpen: true,
  toolOrder: DEFAULT_TOOL_ORDER,
  language: null,
};
