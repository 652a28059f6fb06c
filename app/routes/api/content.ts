import { requireApiUser } from "~/auth/auth.server";
import { apiAction, keptBytesResponse, parseInput, queryOf, readJsonBody, requireMethod } from "~/lib/http.server";
import { contentInputSchema, createContent, listQuerySchema } from "~/models/content.server";
import { contentListAnswer } from "~/models/content-list.server";
import { searchQuerySchema } from "~/models/content-search.server";
import type { Route } from "./+types/content";

const contentQuerySchema = listQuerySchema.extend({ q: searchQuerySchema.optional() });

/**
 * GET /api/content -> a bare array of {id, title, body, pinned, updated_at}, pinned first, then most
 * recently updated first. Optional ?limit= (1-1000) and ?offset= page through it; X-Total-Count says how many.
 * ?q= keeps only the items whose title or body has every word (each also as a prefix: "robo" finds
 * "robots"); blank q is the plain list, a q without letters or digits matches nothing.
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const { limit, offset, q } = parseInput(contentQuerySchema, queryOf(request));
  const { json, total, kept } = await contentListAnswer(user.id, { limit, offset, q });
  return keptBytesResponse(json, {
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "X-Total-Count": String(total),
      "Server-Timing": kept ? 'list;desc="kept"' : 'list;desc="read"',
    },
  });
});

/** POST /api/content {title, body?} -> 201 with the item. */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const user = await requireApiUser(context, request);
  const input = parseInput(contentInputSchema, await readJsonBody(request));
  const item = await createContent(user.id, input);
  return Response.json(item, { status: 201, headers: { Location: `/api/content/${encodeURIComponent(item.id)}` } });
});
