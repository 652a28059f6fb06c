import { msg } from "~/common/i18n/translate";
import type { ProjectSlot } from "~/common/project-rules";

/**
 * The project screens' texts per media slot (docs/screens.md#projects and #project-editor), each a
 * whole text of the catalogue (a slot's name inside a sentence would not agree with it in every
 * language): the editor, the cards and the route's action show `t(TEXT[slot])`.
 */

/** The slot's name: its select's label and its icon's. */
export const SLOT_LABELS: Record<ProjectSlot, string> = {
  voice: msg("Voice"),
  music: msg("Music"),
  video: msg("Video"),
  image: msg("Image"),
};

/** An empty slot: its select's first choice and its dimmed icon's name. */
export const SLOT_EMPTY: Record<ProjectSlot, string> = {
  voice: msg("No voice"),
  music: msg("No music"),
  video: msg("No video"),
  image: msg("No image"),
};

/** A filled slot with its file's (or track's) name: `t(SLOT_NAMED[slot], { name })`. */
export const SLOT_NAMED: Record<ProjectSlot, string> = {
  voice: msg("Voice: {{name}}"),
  music: msg("Music: {{name}}"),
  video: msg("Video: {{name}}"),
  image: msg("Image: {{name}}"),
};

/** A generator's result chosen for a new project (saved with it). */
export const SLOT_ATTACHED_ON_SAVE: Record<ProjectSlot, string> = {
  voice: msg("Voice attached: it is saved with the project when you press Save Project."),
  music: msg("Music attached: it is saved with the project when you press Save Project."),
  video: msg("Video attached: it is saved with the project when you press Save Project."),
  image: msg("Image attached: it is saved with the project when you press Save Project."),
};

/** A saved project's slot changed at once (the action's answer to `attach`). */
export const SLOT_ATTACHED: Record<ProjectSlot, string> = {
  voice: msg("Voice attached to the project"),
  music: msg("Music attached to the project"),
  video: msg("Video attached to the project"),
  image: msg("Image attached to the project"),
};
export const SLOT_REMOVED: Record<ProjectSlot, string> = {
  voice: msg("Voice removed from the project"),
  music: msg("Music removed from the project"),
  video: msg("Video removed from the project"),
  image: msg("Image removed from the project"),
};
