import { formatDateTime, formatNumber } from "~/common/i18n/formats";
import { msg, type Translator } from "~/common/i18n/translate";

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
  | {
      intent: "share";
      ok: false;
      id: string;
      /** An English text of the catalogue (the screen shows `t(message)`). */
      message: string;
      /** The server's reason after it (a model's English detail; the screen shows `t(detail)`). */
      detail?: string;
      /** English texts of the catalogue, shown with `shareFieldText`. */
      fieldErrors?: Partial<Record<ShareField, string>>;
    };

/** The most views a link may be given a limit of. */
export const SHARE_MAX_VIEWS = 1_000_000;

/** The share form's refusals (docs/screens.md#sharing), English as the catalogue keys them. */
export const SHARE_FAILED = msg("❌ Could not create the link.");
export const SHARING_OFF_REFUSED = msg("❌ Could not create the link. Sharing is turned off on this server.");
export const SHARE_RETRY = msg("❌ Could not create the link. Please try again.");
export const UNEXPECTED_ERROR = msg("Unexpected error.");
export const MAX_VIEWS_INVALID = msg(
  "Enter a whole number of views from 1 to {{max}}, or leave it empty for no limit.",
);
export const EXPIRY_INVALID = msg("Choose when the link expires from the list.");
export const LINK_CREATED = msg("🔗 Link created");

/**
 * The refusal past SHARES_MAX_PER_PERSON live links, in the language of `t`: the API's 409 `detail` is
 * this in English (the English catalogue's forms), a screen says it in its own (docs/decisions/0090).
 */
export function shareLimitText(t: Translator["t"], count: number): string {
  return t("One person may have at most {{count}} live share links: end one before making another.", { count });
}

/** A field's refusal in the screen's language (the limit in its digits). */
export function shareFieldText({ t, language }: Translator, text: string): string {
  return t(text, { max: formatNumber(language, SHARE_MAX_VIEWS) });
}

/** The select's value for "never". */
export const NEVER_EXPIRES = "never";

export const KIND_NAMES: Record<SharedKind, string> = {
  content: msg("Content"),
  file: msg("File"),
  project: msg("Project"),
};

/** The title a link's target goes by once it is deleted (the API's `title`, the screens' text). */
export const DELETED_TITLE = msg("Deleted");

/** A count as the link's facts write it: the language's digits, no grouping (as English always had); `count` goes as it is. */
const digits = (language: string, value: number) => formatNumber(language, value, { useGrouping: false });

/** "3 / 10 views" with a limit (counted by the limit, so a language can agree with it), "3 views" without. */
export function viewsText(link: Pick<SharedLink, "views" | "max_views">, { t, language }: Translator): string {
  if (link.max_views !== null)
    return t("{{views}} / {{count}} views", { count: link.max_views, views: digits(language, link.views) });
  return t("{{count}} views", { count: link.views });
}

/** Whether it still opens, and until when. */
export function expiryText(link: Pick<SharedLink, "state" | "expires_at">, { t, language }: Translator): string {
  if (link.state === "expired") return t("Expired");
  if (link.state === "used_up") return t("All views used");
  if (link.state === "gone") return t("Its item was deleted");
  return link.expires_at
    ? t("Expires {{date}}", { date: formatDateTime(language, link.expires_at, "dateTime") })
    : t("Never expires");
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
