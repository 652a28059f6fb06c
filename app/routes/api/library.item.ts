import { requireApiUser } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import {
  deleteLibraryFile,
  getLibraryFile,
  libraryJson,
  renameLibraryFile,
  renameSchema,
} from "~/models/media/library-files.server";
import type { Route } from "./+types/library.item";

/** GET /api/library/{id} -> the file with its provenance; another person's or an unknown id -> 404. */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const file = await getLibraryFile(user.id, params.id);
  return Response.json(libraryJson(file), { headers: { "Cache-Control": "no-store" } });
});

/**
 * PATCH /api/library/{id} {name} -> the renamed file (trimmed; the kind's extension kept or added;
 * blank -> 422; taken -> 409). DELETE /api/library/{id} -> {ok: true, id}: detached from every
 * project, and its URL answers 404 from then on.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["PATCH", "DELETE"], "GET, PATCH, DELETE");
  const user = await requireApiUser(context, request);
  if (request.method === "DELETE") {
    await deleteLibraryFile(user.id, params.id);
    return Response.json({ ok: true, id: params.id });
  }
  const { name } = parseInput(renameSchema, await readJsonBody(request));
  const file = await renameLibraryFile(user.id, params.id, name);
  return Response.json(libraryJson(file));
});
