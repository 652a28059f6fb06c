import { decodePngDataUrl } from "~/lib/storage/file-signatures";
import { sketchSchema } from "~/ai/inputs.server";
import { isBlankSketch, isDecodablePng } from "~/ai/image/local-sketch.server";
import { sketchToImage } from "~/services/media/generation.server";
import { requireApiUser } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import type { Route } from "./+types/ai.sketch2image";

/** A 10 MiB PNG is about 14 MiB as base64 in JSON; a body beyond this is refused (413) unread. */
const BODY_MAX_BYTES = 14 * 1024 * 1024 + 64 * 1024;

/**
 * POST /api/ai/sketch2image {image_data: PNG data URL, style} -> {image: URL of the stored image}.
 * Not a PNG (by its bytes), over 10 MiB, not decodable, or an unknown style -> 422; a provider
 * failure -> 502/504 with the text in docs/screens.md#error-messages. A blank sketch (nothing drawn: all white or transparent, or all
 * the pad's paper) -> 400 before any AI work: it would only come back as a blank image.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const { image_data, style } = parseInput(sketchSchema, await readJsonBody(request, BODY_MAX_BYTES));
  const png = decodePngDataUrl(image_data);
  if (!png.ok) throw new DomainError(422, png.message);
  if (!(await isDecodablePng(png.bytes)))
    throw new DomainError(422, "image_data must be a whole PNG image of at most 4096x4096 pixels");
  if (await isBlankSketch(png.bytes))
    throw new DomainError(
      400,
      "image_data is a blank sketch: nothing is drawn on it (every pixel white, transparent or the pad's paper). Draw something first",
    );
  const result = await sketchToImage(user.id, png.bytes, style, request.signal);
  return Response.json(
    { image: result.url, media_id: result.media_id, style, provider: result.provider },
    { status: 201 },
  );
});

export const loader = refuseMethod("POST");
