import { createContext, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { DEFAULT_PREFERENCES, normaliseToolOrder, PLANS, type Preferences } from "~/common/tools";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";
import { createSignedCookie, hostCookieName } from "./signed-cookie.server";

/**
 * Local settings the server must render without JavaScript (theme, plan, tools open, tool order)
 * live in a small signed cookie, so the first paint is already right.
 */
// `__Host-studio_prefs` when cookies are Secure; a browser's old `studio_prefs` is ignored and expired (renamedFrom).
const PREFERENCES_COOKIE = hostCookieName("studio_prefs", env.cookieSecure);
const preferencesCookie = createSignedCookie(PREFERENCES_COOKIE, {
  renamedFrom: "studio_prefs",
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.cookieSecure,
  secrets: keys.cookieSecrets,
  maxAge: 365 * 86_400,
});

const storedSchema = z.object({
  theme: z.enum(["dark", "light"]).catch(DEFAULT_PREFERENCES.theme),
  plan: z.enum(PLANS).catch(DEFAULT_PREFERENCES.plan),
  toolsOpen: z.boolean().catch(DEFAULT_PREFERENCES.toolsOpen),
  toolOrder: z.array(z.string()).catch(DEFAULT_PREFERENCES.toolOrder),
  language: z.string().max(16).nullable().catch(null),
});

/** A fresh object every time: the preferences action changes the one it reads before writing it back. */
function fromStored(raw: unknown): Preferences {
  const parsed = storedSchema.safeParse(raw ?? {});
  if (!parsed.success) return { ...DEFAULT_PREFERENCES };
  return { ...parsed.data, toolOrder: normaliseToolOrder(parsed.data.toolOrder) };
}

/** What a browser without the cookie gets (most requests): worked out once. */
const WITHOUT_COOKIE = fromStored(null);

export async function readPreferences(request: Request): Promise<Preferences> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes(`${PREFERENCES_COOKIE}=`))
    return { ...WITHOUT_COOKIE, toolOrder: [...WITHOUT_COOKIE.toolOrder] };
  return fromStored(await preferencesCookie.parse(cookieHeader));
}

/** This request's preferences, read from its cookie the first time a loader or action asks. */
const preferencesContext = createContext<Promise<Preferences> | null>(null);

/**
 * This request's preferences, parsed once per request into the router context (the root, the shell
 * and the dashboard all ask; an API call, which never does, pays nothing). A copy: the preferences
 * action changes what it reads before writing it back.
 */
export async function preferencesOf(context: Readonly<RouterContextProvider>, request: Request): Promise<Preferences> {
  let parsed = context.get(preferencesContext);
  if (!parsed) {
    parsed = readPreferences(request);
    context.set(preferencesContext, parsed);
  }
  const preferences = await parsed;
  return { ...preferences, toolOrder: [...preferences.toolOrder] };
}

export function serializePreferences(preferences: Preferences): Promise<string> {
  return preferencesCookie.serialize(preferences);
}
