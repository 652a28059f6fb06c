import { answerAsApi, type DoorPost, jsonAnswer, type MemoryAnswer, readDoorJsonBody } from "~/lib/http.server";
import { SECURITY_HEADERS } from "~/lib/security.server";
import { autosaveContent } from "~/models/content.server";
import { userOfAuthorization } from "./auth.server";

/** The security middleware's headers, and `Server-Timing: door` to say who answered (React Router's answer has none). */
const DOOR_HEADERS: Record<string, string> = { ...SECURITY_HEADERS, "Server-Timing": "door" };

/**
 * Whether an action at the door may take this request: an API client's, with a bearer token, no
 * cookie (the session middleware may have to refresh one) and no Origin or Sec-Fetch-Site (a browser
 * sends them on every POST, and its writes go through the cross-site check in front of React Router).
 */
function isApiClientWrite(request: DoorPost): request is DoorPost & { headers: { authorization: string } } {
  const { authorization, cookie, origin } = request.headers;
  return typeof authorization === "string" && cookie === undefined && origin === undefined && request.headers["sec-fetch-site"] === undefined;
}

/**
 * POST /api/content/{id}/autosave from an API client, answered at the front door (issue 13;
 * docs/decisions/0028-actions-at-the-door.md): the route's own steps in its order (the token, 401;
 * the JSON body, 413/400; the fields, 422; the save, 404/409), its answers byte for byte and its
 * headers with the security middleware's, without React Router's Request, middleware and Response,
 * which cost more than the save itself. Anything else is left to the route (null).
 */
export function autosaveAtTheDoor(request: DoorPost): (() => Promise<MemoryAnswer>) | null {
  if (!isApiClientWrite(request)) return null;
  return () =>
    answerAsApi(async () => {
      const user = await userOfAuthorization(request.headers.authorization);
      const item = await autosaveContent(user.id, request.params.id, await readDoorJsonBody(request));
      return jsonAnswer(item);
    }, DOOR_HEADERS);
}
