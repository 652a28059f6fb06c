import { setToastCookieOptions } from "remix-toast";
import { env, sessionSecret } from "./env.server";

// remix-toast's built-in secret is public; sign its flash cookie with ours.
setToastCookieOptions({ secrets: [sessionSecret()], secure: env.cookieSecure, sameSite: "lax", httpOnly: true, path: "/" });

export { dataWithError, dataWithSuccess, getToast, redirectWithError, redirectWithSuccess, redirectWithInfo } from "remix-toast";
