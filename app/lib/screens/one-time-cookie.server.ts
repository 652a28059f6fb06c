import type { z } from "zod";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";
import { createSignedCookie, hostCookieName } from "./signed-cookie.server";

/**
 * A note one answer leaves for the next page, read once and then cleared (like the flash toast, in
 * its own signed cookie): e.g. the email a new account was made with, for the login form, or the
 * dashboard item to bring into view after Create. It keeps the addresses as they are (no query).
 */
export interface OneTimeCookie<T> {
  /** The Set-Cookie header that leaves `value` for the next page. */
  set(value: T): Promise<string>;
  /** The value the browser sent (null if none or not valid), and the Set-Cookie that clears it (null if none was sent). */
  take(request: Request): Promise<{ value: T | null; clear: string | null }>;
}

export function oneTimeCookie<T>(name: string, schema: z.ZodType<T>, maxAgeSeconds = 600): OneTimeCookie<T> {
  const cookieName = hostCookieName(name, env.cookieSecure);
  const cookie = createSignedCookie(cookieName, {
    secrets: keys.cookieSecrets,
    secure: env.cookieSecure,
    sameSite: "lax",
    httpOnly: true,
    path: "/",
    maxAge: maxAgeSeconds,
  });
  return {
    set: (value) => cookie.serialize(value),
    async take(request) {
      const header = request.headers.get("Cookie");
      if (!header?.includes(`${cookieName}=`)) return { value: null, clear: null };
      const parsed = schema.safeParse(await cookie.parse(header));
      const clear = await cookie.serialize("", { maxAge: undefined, expires: new Date(0) });
      return { value: parsed.success ? parsed.data : null, clear };
    },
  };
}
