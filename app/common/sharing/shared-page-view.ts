import { msg } from "~/common/i18n/translate";

/**
 * The shared page's words and data (docs/screens.md#shared-page), for the server that builds it
 * (app/services/sharing/shared-page.server.ts) and the components that render it (app/components/sharing/shared-*.tsx).
 */

/** The 410 page's one sentence. */
export const SHARE_GONE_TEXT = msg("This link has expired or was turned off.");

export type SharedKind = "content" | "file" | "project";

export type SharedMediaType = "image" | "audio" | "video" | "other";

/** One file as the page shows it: its player or picture, and its Download. */
export interface SharedFileView {
  id: string;
  name: string;
  type: SharedMediaType;
  contentType: string;
  width: number | null;
  height: number | null;
  /** The bytes (with the view grant), inline. */
  src: string;
  /** The same, as an attachment with the file's name. */
  downloadHref: string;
}

/** What a project's slot is called on the page. */
export const SHARED_SLOT_LABELS: Record<string, string> = {
  image: msg("Image"),
  video: msg("Video"),
  voice: msg("Voice"),
};

export type SharedPageData =
  | { state: "missing" }
  | { state: "gone" }
  | {
      state: "shared";
      kind: SharedKind;
      title: string;
      /** The link itself, absolute (og:url). */
      pageUrl: string;
      /** The picture chat apps preview (og:image), absolute; null when the link is not to an image. */
      previewImage: string | null;
      content: { title: string; body: string; updatedAt: string } | null;
      file: SharedFileView | null;
      project: { title: string; description: string; media: (SharedFileView & { slot: string })[] } | null;
    };
