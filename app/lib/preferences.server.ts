import { createCookie } from "react-router";
import { z } from "zod";
import { DEFAULT_PREFERENCES, normaliseToolOrder, PLANS, type Preferences } from "~/shared/tools";
import { env, sessionSecret } from "./env.server";

/**
 * Local settings the server must render without JavaScript (theme, plan, tools open, tool order)
 * live in a small signed cookie, so the first paint is already right.
 */
const preferencesCookie = createCookie("studio_prefs", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.cookieSecure,
  secrets: [sessionSecret()],
  maxAge: 365 * 86_400,
});

const storedSchema = z.object({
  theme: z.enum(["dark", "light"]).catch(DEFAULT_PREFERENCES.theme),
  plan: z.enum(PLANS).catch(DEFAULT_PREFERENCES.plan),
  toolsOpen: z.boolean().catch(DEFAULT_PREFERENCES.toolsOpen),
  toolOrder: z.array(z.string()).catch(DEFAULT_PREFERENCES.toolOrder),
});

export async function readPreferences(request: Request): Promise<Preferences> {
  const raw = await preferencesCookie.parse(request.headers.get("Cookie"));
  const parsed = storedSchema.safeParse(raw ?? {});
  if (!parsed.success) return DEFAULT_PREFERENCES;
  return { ...parsed.data, toolOrder: normaliseToolOrder(parsed.data.toolOrder) };
}

export function serializePreferences(preferences: Preferences): Promise<string> {
  return preferencesCookie.serialize(preferences);
}
