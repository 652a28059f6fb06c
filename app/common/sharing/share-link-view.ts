/**
 * What the screens' Share dialog and the account's "Shared links" read (docs/screens.md#sharing): a link
 * as the model answers it, the panel a screen's loader fills in, and the action's answer to a post.
 */
export type SharedKind = "content" | "file" | "project";

export interface SharedLink {
  id: string;
  url: string;
  kind: SharedKind;
  target_id: string;
  title: string;
  expires_at: string | null;
  max_views: number | null;
  views: number;
  created_at: string;
  state: "active" | "expired" | "used_up" | "gone";
}

export interface ExpiryChoice {
  label: string;
  hours: number | null;
}

/** Sharing as a screen offers it: null when the operator has turned it off (SHARING=off). */
export interface SharingOptions {
  expiry: readonly ExpiryChoice[];
  /** The choice made unless the person picks another (7 days). */
  defaultHours: number | null;
}

/** A link just made (or shown again), with its QR code as an image URL drawn on the server. */
export interface ShownLink {
  share: SharedLink;
  qr: string;
}

/** The share panel of one target in the page (JavaScript off: ?share={id}). */
export interface SharePanelData {
  kind: SharedKind;
  target_id: string;
  shares: SharedLink[];
  shown: ShownLink | null;
}

/** What a screen's loader passes down: Share's choices and, without JavaScript, the panel open in the page. */
export interface ScreenSharing {
  options: SharingOptions;
  panel: SharePanelData | null;
}

export type ShareField = "max_views" | "expires_in_hours";

/** The action's answer to intent=share (a fetcher's, or a plain form's refusal). */
export type ShareAnswer =
  | ({ intent: "share"; ok: true; id: string; shares: SharedLink[] } & ShownLink)
  | { intent: "share"; ok: false; id: string; message: string; fieldErrors?: Partial<Record<ShareField, string>> };

/** The select's value for "never". */
export const NEVER_EXPIRES = "never";

export const KIND_NAMES: Record<SharedKind, string> = { content: "Content", file: "File", project: "Project" };

const dateTime = (iso: string) =>
  `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;

/** "3 / 10 views" with a limit, "3 views" without. */
export function viewsText(link: Pick<SharedLink, "views" | "max_views">): string {
  if (link.max_views !== null) return `${link.views} / ${link.max_views} views`;
  return link.views === 1 ? "1 view" : `${link.views} views`;
}

/** Whether it still opens, and until when. */
export function expiryText(link: Pick<SharedLink, "state" | "expires_at">): string {
  if (link.state === "expired") return "Expired";
  if (link.state === "used_up") return "All views used";
  if (link.state === "gone") return "Its item was deleted";
  return link.expires_at ? `Expires ${dateTime(link.expires_at)}` : "Never expires";
}

/** A screen's address with the share panel of `targetId` open (and the link `shareId` shown): ?share=…&shared=…. */
export function sharePanelUrl(screen: string, targetId: string, shareId?: string): string {
  const url = new URL(screen, "http://screen.invalid");
  url.searchParams.set("share", targetId);
  if (shareId) url.searchParams.set("shared", shareId);
  else url.searchParams.delete("shared");
  return `${url.pathname}${url.search}`;
}

/** The same address with the panel closed. */
export function withoutSharePanel(screen: string): string {
  const url = new URL(screen, "http://screen.invalid");
  url.searchParams.delete("share");
  url.searchParams.delete("shared");
  return `${url.pathname}${url.search}`;
}
