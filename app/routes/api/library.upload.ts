import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { libraryJson } from "~/models/media/library-files.server";
import { saveUploadToLibrary } from "~/services/media/media-upload.server";
import type { Route } from "./+types/library.upload";

export const loader = refuseMethod("POST");

/**
 * POST /api/library/upload, multipart `file` and `kind` (photo | clip | memo) -> 201 with the file.
 * The content decides: a photo must be PNG, a clip WebM, a memo M4A (MP4 audio) -> else 415; another
 * kind -> 422; past the kind's limit or the storage quota -> 413 (by Content-Length before a byte is
 * kept, else during the stream); nothing is kept on a refusal. A taken name is numbered ("name (2).png").
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const file = await saveUploadToLibrary(user.id, request);
  return Response.json(libraryJson(file), {
    status: 201,
    headers: { Location: `/api/library/${encodeURIComponent(file.id)}` },
  });
});
