import { msg } from "~/common/i18n/translate";
import { MEDIA_KINDS, type MediaKind } from "./media-names";

/**
 * The library's rules shared by the server and the screen (decision 0022): its kinds and their labels,
 * the sort orders, the page size and the provenance a generated file carries. The labels are
 * catalogue keys: a screen shows `t(KIND_LABELS[kind])`.
 */
export const LIBRARY_KINDS = MEDIA_KINDS;

export const KIND_LABELS: Record<MediaKind, string> = {
  voice: msg("Voice clip"),
  video: msg("Video"),
  speech: msg("Generated speech"),
  image: msg("Generated image"),
  aivideo: msg("AI video"),
  sketch: msg("Sketch result"),
  photo: msg("Photo"),
  clip: msg("Camera clip"),
  memo: msg("Voice memo"),
};

/** Kinds a person saves to the library from the capture screens (POST /api/library/upload). */
export const SAVABLE_KINDS = ["photo", "clip", "memo"] as const;
export type SavableKind = (typeof SAVABLE_KINDS)[number];

/**
 * `sort`: `-date` newest first (the default), `date` oldest first, `-size` largest first, `size`
 * smallest first (a leading minus is descending, as in many APIs).
 */
export const LIBRARY_SORTS = ["-date", "date", "-size", "size"] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];
export const DEFAULT_LIBRARY_SORT: LibrarySort = "-date";
export const SORT_LABELS: Record<LibrarySort, string> = {
  "-date": msg("Newest first"),
  date: msg("Oldest first"),
  "-size": msg("Largest first"),
  size: msg("Smallest first"),
};

/** A file as GET /api/library answers it and the library screen shows it (libraryJson in app/models/media/library-files.server.ts). */
export interface LibraryFileJson {
  id: string;
  name: string;
  kind: MediaKind;
  size: number;
  content_type: string;
  created_at: string;
  updated_at: string;
  url: string;
  /** For PNG images: a smaller picture of them; null for everything else. */
  thumbnail_url: string | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  provenance: Provenance | null;
}

/** A view of the library screen: the filters its URL names ("" for every kind). */
export interface LibraryFilters {
  kind: MediaKind | "";
  q: string;
  sort: LibrarySort;
  page: number;
}

/** The query string of a library view (defaults left out), for links and for coming back after a post. */
export function librarySearch(filters: LibraryFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.kind) params.set("kind", filters.kind);
  if (filters.q) params.set("q", filters.q);
  if (filters.sort !== DEFAULT_LIBRARY_SORT) params.set("sort", filters.sort);
  if (filters.page > 1) params.set("page", String(filters.page));
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** Files a page (the screen and the API's default); the API takes `per_page` up to LIBRARY_MAX_PER_PAGE. */
export const LIBRARY_PAGE_SIZE = 24;
export const LIBRARY_MAX_PER_PAGE = 100;

/** Where a generated file came from: the sketch it restyled, the project or the job that made it. */
export interface ProvenanceSource {
  type: "sketch" | "project" | "job";
  id: string | null;
}

/** How a generated file was made (recorded when it is stored; null for uploads and older files). */
export interface Provenance {
  /** The prompt, or the text spoken. */
  prompt: string | null;
  style: string | null;
  voice: string | null;
  provider: string | null;
  model: string | null;
  source: ProvenanceSource | null;
}

export const isMediaKind = (value: string): value is MediaKind => (LIBRARY_KINDS as readonly string[]).includes(value);

/** Images the library thumbnails and the drawing pad opens as a starting picture. */
export const IMAGE_KINDS: readonly MediaKind[] = ["image", "sketch", "photo"];
export const AUDIO_KINDS: readonly MediaKind[] = ["voice", "speech", "memo"];
export const VIDEO_KINDS: readonly MediaKind[] = ["video", "aivideo", "clip"];
