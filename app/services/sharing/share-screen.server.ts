import { data } from "react-router";
import { createTranslator, type Translator } from "~/common/i18n/translate";
import { env } from "~/lib/settings/env.server";
import { answersWithData } from "~/lib/screens/enhanced-answer.server";
import { fieldErrors, screenFailure, text } from "~/lib/screens/forms.server";
import { publicOrigin } from "~/lib/http/public-origin.server";
import { qrDataUrl } from "~/lib/qr-code.server";
import { dataWithSuccess, redirectWithSuccess } from "~/lib/screens/toast.server";
import {
  createShare,
  getShare,
  listSharesOfTarget,
  revokeShare,
  SHARE_EXPIRY_CHOICES,
  SHARE_EXPIRY_DEFAULT_HOURS,
  SHARE_LIMIT,
  shareInputSchema,
} from "~/models/sharing/share.server";
import { listSharesPage, screenShareCursorKey } from "~/models/sharing/share-keyset.server";
import {
  EXPIRY_INVALID,
  LINK_CREATED,
  MAX_VIEWS_INVALID,
  NEVER_EXPIRES,
  SHARE_FAILED,
  SHARING_OFF_REFUSED,
  UNEXPECTED_ERROR,
  shareLimitText,
  sharePanelUrl,
  type ShareAnswer,
  type SharedKind,
  type SharedLink,
  type ScreenSharing,
} from "~/common/sharing/share-link-view";

/**
 * The Share dialog's work for the screens that offer it (content view, library, projects; decision
 * 0071): the options a loader passes down, the panel shown in the page without JavaScript, and the
 * action's answer to intent=share.
 */

const ENGLISH = createTranslator("en", {});

/**
 * What a screen offers (null when sharing is off: SHARING=off hides every control): the expiry choices
 * and, when the person followed Share without JavaScript (?share={id}), the panel of that target with
 * its links; ?shared={share id} is a link just made, shown again with its QR code (the token is kept
 * sealed, so the list has its URL). No panel when the target is not theirs.
 */
export async function screenSharing(
  userId: string,
  kind: SharedKind,
  url: URL,
  request: Request,
): Promise<ScreenSharing | null> {
  if (env.sharing === "off") return null;
  const options = { expiry: SHARE_EXPIRY_CHOICES, defaultHours: SHARE_EXPIRY_DEFAULT_HOURS };
  const targetId = url.searchParams.get("share");
  if (!targetId) return { options, panel: null };
  try {
    const shares = await listSharesOfTarget(userId, kind, targetId, publicOrigin(request));
    const shown = shares.find((share) => share.id === url.searchParams.get("shared"));
    // A link whose sealed token no longer opens (the secret changed) has no URL to draw.
    const qr = shown?.url ? await qrDataUrl(shown.url) : null;
    return { options, panel: { kind, target_id: targetId, shares, shown: shown && qr ? { share: shown, qr } : null } };
  } catch (error) {
    if (screenFailure(error).status === 404) return { options, panel: null };
    throw error;
  }
}

/** A number field: "" is no limit (null); otherwise a whole number, else undefined (refused). */
function wholeOrNull(value: string): number | null | undefined {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * intent=share from a screen's form: makes the link and answers it with its QR code to a fetcher, or
 * redirects a plain form (post, redirect, get) back to the panel it was posted from (the screen with
 * ?share={id}, its other query kept) with ?shared={share id}, where the panel shows it. A bad maximum
 * is a 400 beside its field. Null when the post is not a share. The answer's texts are English
 * catalogue keys (the panel shows them through `t`), but for the 409 past SHARES_MAX_PER_PERSON, said
 * with its number in `translator`'s language; the toast is said in that language too (the door's
 * screenTranslator; English without one).
 */
export async function shareAction(
  userId: string,
  form: FormData,
  request: Request,
  { t }: Pick<Translator, "t"> = ENGLISH,
): Promise<Response | ReturnType<typeof data<ShareAnswer>> | null> {
  if (text(form.get("intent")) !== "share") return null;
  const id = text(form.get("id"));
  type Refusal = Extract<ShareAnswer, { ok: false }>;
  const refuse = (status: number, message: string, more: Pick<Refusal, "fieldErrors" | "detail"> = {}) =>
    data<ShareAnswer>({ intent: "share", ok: false, id, message, ...more }, { status });
  if (env.sharing === "off") return refuse(404, SHARING_OFF_REFUSED);
  const maxViews = wholeOrNull(text(form.get("max_views")));
  if (maxViews === undefined || maxViews === 0)
    return refuse(400, SHARE_FAILED, { fieldErrors: { max_views: MAX_VIEWS_INVALID } });
  const expiry = text(form.get("expires_in_hours"));
  const input = {
    kind: text(form.get("kind")),
    id,
    expires_in_hours: expiry === NEVER_EXPIRES || !expiry ? null : Number(expiry),
    max_views: maxViews,
  };
  // The model's own rules (a maximum past its limit, an unknown expiry), said beside their fields in the screen's words.
  const parsed = shareInputSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error, ["max_views", "expires_in_hours"] as const);
    if (errors.max_views) return refuse(400, SHARE_FAILED, { fieldErrors: { max_views: MAX_VIEWS_INVALID } });
    if (errors.expires_in_hours)
      return refuse(400, SHARE_FAILED, { fieldErrors: { expires_in_hours: EXPIRY_INVALID } });
  }
  const origin = publicOrigin(request);
  let share;
  try {
    share = await createShare(userId, input, origin);
  } catch (error) {
    const failure = screenFailure(error);
    const detail =
      failure.code === SHARE_LIMIT ? shareLimitText(t, env.sharesMaxPerPerson) : (failure.detail ?? UNEXPECTED_ERROR);
    return refuse(failure.status, SHARE_FAILED, { detail });
  }
  if (!answersWithData(form)) {
    const here = new URL(request.url);
    return redirectWithSuccess(sharePanelUrl(`${here.pathname}${here.search}`, id, share.id), t(LINK_CREATED));
  }
  const shares = await listSharesOfTarget(userId, share.kind, share.target_id, origin);
  const answer: ShareAnswer = { intent: "share", ok: true, id, share, qr: await qrDataUrl(share.url), shares };
  return dataWithSuccess(answer, t(LINK_CREATED), { status: 201 });
}

/** How many links a page of the account's "Shared links" shows. */
export const ACCOUNT_SHARES_PAGE = 50;

/** The account's "Shared links" as its loader passes them down. */
export interface AccountShares {
  /** A page of the person's links, newest first. */
  links: SharedLink[];
  /** The cursor of the next page ("Older links": ?shares_cursor=), or null when none follows. */
  next: string | null;
  /** Whether this is a later page (a "Newest links" goes back to the first). */
  older: boolean;
  sharingOff: boolean;
  /** The link ?revoke-share={id} asks about (JavaScript off), found on this page or not; null for none. */
  asked: SharedLink | null;
}

/**
 * The account's "Shared links": the person's links, newest first, ACCOUNT_SHARES_PAGE at a time from
 * ?shares_cursor= (a cursor that does not read is the first page). With sharing off the section stays
 * while the person has links, so they can still revoke them: turning sharing on again would bring them
 * back (docs/decisions/0069). Null when it is off and there are none.
 */
export async function accountShares(userId: string, request: Request): Promise<AccountShares | null> {
  const url = new URL(request.url);
  const origin = publicOrigin(request);
  const after = screenShareCursorKey(url.searchParams.get("shares_cursor"));
  const { shares: links, next } = await listSharesPage(userId, origin, { limit: ACCOUNT_SHARES_PAGE, after });
  const sharingOff = env.sharing === "off";
  if (sharingOff && links.length === 0 && after === null) return null;
  // Revoke without JavaScript comes back to /account?revoke-share={id}: the link may be on another page.
  const askedId = url.searchParams.get("revoke-share");
  const asked = askedId
    ? (links.find((link) => link.id === askedId) ?? (await getShare(userId, askedId, origin)) ?? null)
    : null;
  return { links, next, older: after !== null, sharingOff, asked };
}

/** Revoke from the account: false when the link is not the person's (or is already gone from the list). */
export async function revokeShareOf(userId: string, shareId: string): Promise<boolean> {
  try {
    await revokeShare(userId, shareId);
    return true;
  } catch (error) {
    if (screenFailure(error).status === 404) return false;
    throw error;
  }
}
