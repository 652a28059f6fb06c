import { z } from "zod";
import { DomainError } from "../domain-error";
import { firstIssue } from "~/lib/screens/validation.server";

/**
 * How the API's lists page (GET /api/content, /api/videos, /api/voice/list-files, /api/project): a
 * page of `limit` entries (100 unless asked, at most 500: a larger limit is clamped) from `offset`
 * (0 unless asked). The answer keeps its shape; `X-Total-Count` says how many entries there are in
 * all, and while more follow, `Link: <same path and query, the next offset>; rel="next"` (RFC 8288)
 * names the next page. A limit or offset that is not a whole number in range is a 400 {detail}.
 * No request makes the server build a list larger than a page (docs/decisions/0031).
 */
export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 500;
/** Past any list anyone has; keeps the number a safe SQL integer on both engines. */
export const OFFSET_MAX = 1_000_000_000;

export interface Page {
  limit: number;
  offset: number;
}

const whole = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .refine(Number.isFinite, `${name} must be a whole number`)
    .pipe(z.number().int(`${name} must be a whole number`));

export const pageQuerySchema = z.object({
  limit: whole("limit")
    .pipe(z.number().min(1, "limit must be at least 1"))
    .optional()
    .transform((limit) => Math.min(limit ?? PAGE_DEFAULT, PAGE_MAX)),
  offset: whole("offset")
    .pipe(z.number().min(0, "offset must be at least 0").max(OFFSET_MAX, `offset must be at most ${OFFSET_MAX}`))
    .optional()
    .transform((offset) => offset ?? 0),
});

/** The page a request asks for (`?limit=&offset=`); a bad limit or offset is a 400 {detail}. */
export function pageOf(request: Request): Page {
  const url = new URL(request.url);
  const result = pageQuerySchema.safeParse({
    limit: url.searchParams.get("limit") ?? undefined,
    offset: url.searchParams.get("offset") ?? undefined,
  });
  if (!result.success) throw new DomainError(400, firstIssue(result.error));
  return result.data;
}

/**
 * `X-Total-Count`, and `Link: <…>; rel="next"` while entries follow the `count` this page holds: the
 * request's own path and query with the next offset (a relative reference, RFC 8288 §3.2).
 */
export function pageHeaders(request: Request, page: Page, count: number, total: number): Record<string, string> {
  const headers: Record<string, string> = { "X-Total-Count": String(total) };
  const next = page.offset + count;
  if (count > 0 && next < total) {
    const url = new URL(request.url);
    url.searchParams.set("offset", String(next));
    headers.Link = `<${url.pathname}${url.search}>; rel="next"`;
  }
  return headers;
}

/**
 * The headers of a list paged by cursor (docs/decisions/0076-paging-by-cursor.md): `X-Total-Count`,
 * and while entries follow, `Link: <…>; rel="next"` naming the request's own path and query with the
 * next page's cursor in place of any offset (the next page starts after this page's last entry,
 * whatever was added or removed before it meanwhile). `extra` sets other parameters of the next page's
 * address (the library's page number). A total below 0 was not counted (a search's full page,
 * decision 0077): no `X-Total-Count` then.
 */
export function cursorPageHeaders(
  request: Request,
  total: number,
  next: string | null,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = total >= 0 ? { "X-Total-Count": String(total) } : {};
  if (next !== null) {
    const url = new URL(request.url);
    url.searchParams.delete("offset");
    for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
    url.searchParams.set("cursor", next);
    headers.Link = `<${url.pathname}${url.search}>; rel="next"`;
  }
  return headers;
}
