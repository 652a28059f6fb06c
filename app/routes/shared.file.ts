import { screenTranslator } from "~/auth/screen-language.server";
import { sharedFile, sharedPathMiddleware } from "~/services/sharing/shared-page.server";
import type { Route } from "./+types/shared.file";

/**
 * GET/HEAD /s/{token}/file/{fileId}: a shared file's bytes (app/services/sharing/shared-page.server.ts
 * `sharedFile`), with byte ranges and `?download=1`; counts no view. Any other method is the
 * middleware's 405 (no action here).
 */
export const middleware: Route.MiddlewareFunction[] = [sharedPathMiddleware({ translator: screenTranslator })];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  return sharedFile(request, params.token, params.fileId, await screenTranslator(context, request));
}
