import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { createTranslator, msg, type Translator } from "~/common/i18n/translate";
import { DomainError } from "~/lib/domain-error";
import { env } from "~/lib/settings/env.server";
import { attachmentDisposition, fileResponse } from "~/lib/http/file-response.server";
import { AddressWindow } from "~/lib/http/address-window.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { recordShareOpen } from "~/lib/observe/metrics.server";
import { grantShareView, shareGrantIsValid } from "~/lib/share-grant.server";
import { fileStore } from "~/lib/storage/storage.server";
import { isLoopbackAddress } from "~/models/accounts/login-attempt.server";
import { servedFile, type MediaFile } from "~/models/media/media.server";
import { openShareForFile, openShareForView } from "~/models/sharing/share-open.server";
import {
  SHARE_GONE_TEXT,
  type SharedFileView,
  type SharedMediaType,
  type SharedPageData,
} from "~/common/sharing/shared-page-view";

/**
 * The public side of share links (docs/decisions/0070-the-shared-page.md): the page at /s/{token} and
 * the bytes of its files, for anyone, no account needed. The links themselves (making, listing,
 * revoking, when one is over) are the model's (app/models/sharing/share.server.ts). Every answer
 * under /s/ gets its headers (noindex, no-referrer, no-store, the script-free CSP) from the root's
 * securityMiddleware (app/lib/http/security.server.ts `sharedPathHeaders`), whatever made it.
 * Each open is counted in the metrics (studio_share_opens_total) by what the link shares, when known
 * ("none" before the link is read or when there is none), and what the visitor got.
 */

/** The plain-text answers a person may see (a file link opened on its own, a budget spent), English as keyed. */
export const FILE_NOT_FOUND_TEXT = msg("File not found");
export const NOT_FOUND_TEXT = msg("Not found");
export const OPEN_FROM_PAGE = msg("This file opens from its shared page: open the link again.");

/** Where the /s/ routes get the visitor's language from (the door's screenTranslator); English without one. */
export type SharedTranslator = (context: Readonly<RouterContextProvider>, request: Request) => Promise<Translator>;
const ENGLISH = createTranslator("en", {});
const inEnglish: SharedTranslator = () => Promise.resolve(ENGLISH);

const requests = new AddressWindow(() => env.shareMaxRequestsPerAddress, 60_000);

function plainText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/** The methods /s/ answers; any other is a 405 from the middleware below. */
const SHARED_METHODS = "GET, HEAD";

/**
 * The middleware of both /s/ routes. A method but GET or HEAD is a 405 with `Allow` at once, before the
 * budget: answered here, React Router never makes its own 405 for the missing action (whose error and
 * log line would carry the path, token and all; `.data` too), and nothing is counted. Then a budget of
 * requests per client address (loopback not counted, as for the login and feedback budgets), 429 as
 * plain text past it. SHARING=off is a 404 from the loaders, never a 429.
 */
export function sharedPathMiddleware({
  translator = inEnglish,
}: {
  /** The visitor's language for the 429's text. */
  translator?: SharedTranslator;
} = {}): MiddlewareFunction<Response> {
  return async ({ context, request }, next) => {
    if (request.method !== "GET" && request.method !== "HEAD")
      return plainText(405, "Method Not Allowed", { Allow: SHARED_METHODS });
    const address = clientAddress(context);
    const answer =
      env.sharing === "off" || isLoopbackAddress(address) ? ({ allowed: true } as const) : requests.take(address);
    return answer.allowed ? next() : tooMany(await translator(context, request), answer.retryAfterSeconds);
  };
}

/** The budget spent: 429 as plain text, in the visitor's language. */
function tooMany({ t }: Pick<Translator, "t">, seconds: number): Response {
  recordShareOpen("none", "limited");
  return plainText(429, t("Too many requests. Try again in {{count}} seconds.", { count: seconds }), {
    "Retry-After": String(seconds),
  });
}

export const sharedPageStatus = (page: SharedPageData) =>
  page.state === "missing" ? 404 : page.state === "gone" ? 410 : 200;

function mediaType(contentType: string): SharedMediaType {
  const [type] = contentType.split("/");
  return type === "image" || type === "audio" || type === "video" ? type : "other";
}

function fileView(file: MediaFile, token: string, grant: string): SharedFileView {
  const src = `/s/${encodeURIComponent(token)}/file/${encodeURIComponent(file.id)}?g=${grant}`;
  return {
    id: file.id,
    name: file.name,
    type: mediaType(file.contentType),
    contentType: file.contentType,
    width: file.width,
    height: file.height,
    src,
    downloadHref: `${src}&download=1`,
  };
}

/**
 * The page's data for `token`, counting one view (GET). A HEAD counts none: it shows nothing, so it
 * only says whether the link is live. The file links carry a grant for this share (app/lib/share-grant.server.ts).
 * The metrics count both: each is a visitor's open of the link.
 */
export async function sharedPage(token: string, origin: string, method: string): Promise<SharedPageData> {
  const page = await pageOf(token, origin, method);
  if (page.state === "shared") recordShareOpen(page.kind, "shown");
  else recordShareOpen("none", page.state);
  return page;
}

async function pageOf(token: string, origin: string, method: string): Promise<SharedPageData> {
  if (env.sharing === "off") return { state: "missing" };
  const target =
    method === "HEAD" ? await openShareForFile(token, undefined, { viewsLeft: true }) : await openShareForView(token);
  if (target === null) return { state: "missing" };
  if (target === "gone") return { state: "gone" };
  // The link's own expiry, revocation and the rest are checked again on every file request.
  const grant = grantShareView(target.share.id, null);
  const file = target.file ? fileView(target.file, token, grant) : null;
  return {
    state: "shared",
    kind: target.share.kind,
    title: target.title,
    pageUrl: `${origin}/s/${encodeURIComponent(token)}`,
    previewImage: file?.type === "image" ? origin + file.src : null,
    content: target.content
      ? { title: target.content.title, body: target.content.body, updatedAt: target.content.updated_at }
      : null,
    file,
    project: target.project
      ? {
          title: target.project.title,
          description: target.project.description,
          media: target.project.media.map(({ slot, file: media }) => ({ slot, ...fileView(media, token, grant) })),
        }
      : null,
  };
}

/**
 * GET/HEAD /s/{token}/file/{fileId}: the shared file, or one of a shared project's, with byte ranges as
 * /media/{id} has them; `?download=1` as an attachment. No view is counted: the request needs the view
 * grant the page put in its link, and the link must still be live (revoked, expired, target or owner
 * gone: 410 at once, grant or not).
 */
export async function sharedFile(
  request: Request,
  token: string,
  fileId: string,
  { t }: Pick<Translator, "t"> = ENGLISH,
): Promise<Response> {
  if (env.sharing === "off") {
    recordShareOpen("none", "missing");
    return plainText(404, t(NOT_FOUND_TEXT));
  }
  const target = await openShareForFile(token, fileId);
  if (target === "gone") {
    recordShareOpen("none", "gone");
    return plainText(410, t(SHARE_GONE_TEXT));
  }
  if (target === null || !target.file) {
    recordShareOpen("none", "missing");
    return plainText(404, t(FILE_NOT_FOUND_TEXT));
  }
  const query = new URL(request.url).searchParams;
  if (!shareGrantIsValid(target.share.id, query.get("g"))) {
    recordShareOpen(target.share.kind, "refused");
    return plainText(403, t(OPEN_FROM_PAGE));
  }
  let response: Response;
  try {
    response = await fileResponse(request, fileStore, servedFile(target.file), "no-store");
  } catch (error) {
    // The bytes gone from the store (404) or the store out of reach (503): said as text, as above.
    if (error instanceof DomainError) {
      if (error.status === 404 || error.status === 503)
        recordShareOpen(target.share.kind, error.status === 404 ? "missing" : "unavailable");
      return plainText(error.status, t(error.detail), error.options.headers);
    }
    throw error;
  }
  recordShareOpen(target.share.kind, "file");
  if (query.get("download") === "1" && response.headers.has("Content-Disposition"))
    response.headers.set("Content-Disposition", attachmentDisposition(target.file.name));
  return response;
}
