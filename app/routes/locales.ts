import { isChoosable } from "~/auth/screen-language.server";
import { publishedCatalogue } from "~/lib/i18n/catalogues.server";
import type { Route } from "./+types/locales";

/**
 * GET /locales/{tag}.json: one language's catalogue, which app/entry.client.tsx reads before it
 * hydrates a page in that language. The page names it with its version (`?v=`), so that URL is cached
 * for good; any other asks again (ETag, 304).
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const tag = /^(.+)\.json$/.exec(params.file)?.[1];
  if (!isChoosable(tag)) throw new Response("Not Found", { status: 404 });
  const { body, version } = publishedCatalogue(tag);
  const etag = `"${version}"`;
  const current = new URL(request.url).searchParams.get("v") === version;
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-cache",
    ETag: etag,
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
