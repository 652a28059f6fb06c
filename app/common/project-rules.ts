import { MUSIC_DEMOS } from "~/common/media/music-demos";

/** Limits and slots of a project (docs/api.md#entities-and-payloads), shared by the server's rules and the editor screen. */
export const PROJECT_TITLE_MAX = 200;
export const PROJECT_DESCRIPTION_MAX = 5000;

/** The four media a project can hold, in the icon order in docs/screens.md#screens-and-routes (voices, music, videos, images). */
export const PROJECT_SLOTS = ["voice", "music", "video", "image"] as const;
export type ProjectSlot = (typeof PROJECT_SLOTS)[number];

/** One attached file as the screens and the API show it. */
export interface AttachedMedia {
  id: string;
  name: string;
  /** The stored kind (voice, speech, video, aivideo, image) or "music" for a bundled track. */
  kind: string;
  url: string;
}

/** A bundled music track by id (demo1..demo3) as an attached file, or null. */
export function musicTrack(trackId: string | null): AttachedMedia | null {
  const track = MUSIC_DEMOS.find((candidate) => candidate.id === trackId);
  return track ? { id: track.id, name: track.title, kind: "music", url: track.src } : null;
}
