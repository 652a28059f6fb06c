import { createCookieSessionStorage } from "react-router";
import { createToastUtilsWithCustomSession, type ToastMessage } from "remix-toast";
import { z } from "zod";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";
import { createSignedCookie, hostCookieName } from "./signed-cookie.server";

/**
 * Flash toasts after a redirect, in remix-toast's cookie format (unchanged) under our name
 * (`__Host-toast-session` when cookies are Secure, else `toast-session`, remix-toast's own, which a
 * browser may still hold: never read then, only expired), signed with our secret (remix-toast's built-in one
 * is public) and with the key prepared once.
 */
export const TOAST_COOKIE = hostCookieName("toast-session", env.cookieSecure);
const toastStorage = createCookieSessionStorage({
  cookie: createSignedCookie(TOAST_COOKIE, {
    secrets: keys.cookieSecrets,
    secure: env.cookieSecure,
    sameSite: "lax",
    httpOnly: true,
    path: "/",
    renamedFrom: "toast-session",
  }),
});

const toasts = createToastUtilsWithCustomSession(toastStorage);
export const { dataWithError, dataWithSuccess, redirectWithError, redirectWithSuccess, redirectWithInfo } = toasts;

// remix-toast's own schema of the flash (src/schema.ts), which its package does not export.
const flashSchema = z.object({
  toast: z
    .looseObject({
      message: z.string(),
      description: z.string().optional(),
      duration: z.number().int().nonnegative().optional(),
      type: z.custom<ToastMessage["type"]>(),
    })
    .optional(),
});

/**
 * The flash toast, if the browser holds one. remix-toast's getToast commits the cookie on every page
 * view (a Set-Cookie on every answer, even with no toast, which also makes every page personal); this
 * answers headers only when the browser sent the cookie, and then clears it: the toast is shown once.
 */
export async function getToast(
  request: Request,
): Promise<{ toast: ToastMessage | undefined; headers: Headers | undefined }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes(`${TOAST_COOKIE}=`)) return { toast: undefined, headers: undefined };
  const session = await toastStorage.getSession(cookieHeader);
  const flash = flashSchema.safeParse(session.get("flash"));
  const headers = new Headers({ "Set-Cookie": await toastStorage.destroySession(session) });
  return { toast: flash.success ? flash.data.toast : undefined, headers };
}
