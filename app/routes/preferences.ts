import { data, redirect } from "react-router";
import { z } from "zod";
import { safeRedirectPath } from "~/common/safe-redirect";
import { preferencesOf, serializePreferences } from "~/lib/screens/preferences.server";
import { DEFAULT_TOOL_ORDER, moveTool, normaliseToolOrder, PLANS, type ToolId } from "~/common/tools";
import { readFormData } from "~/lib/http/bodies.server";
import { answerEnhanced } from "~/lib/screens/enhanced-answer.server";
import { currentUser } from "~/auth/auth.server";
import { isChoosable, screenTranslator } from "~/auth/screen-language.server";
import { saveLanguage } from "~/models/accounts/user.server";
import type { Route } from "./+types/preferences";

const changeSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("theme"), theme: z.enum(["dark", "light"]) }),
  z.object({ intent: z.literal("plan"), plan: z.enum(PLANS) }),
  z.object({ intent: z.literal("tools"), toolsOpen: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal("order"), toolOrder: z.string().max(1000) }),
  z.object({ intent: z.literal("move"), tool: z.enum(DEFAULT_TOOL_ORDER), direction: z.enum(["up", "down"]) }),
  z.object({ intent: z.literal("reset-order") }),
  z.object({ intent: z.literal("language"), language: z.string().refine(isChoosable) }),
]);

/**
 * POST /preferences: theme, plan, tools open, tool order and the screens' language, kept in the
 * preferences cookie (the language on the account too, when signed in).
 * Plain forms are redirected back; fetchers get the new preferences.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const parsed = changeSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: "Invalid preference" }, { status: 400 });
  const preferences = await preferencesOf(context, request);
  const change = parsed.data;
  switch (change.intent) {
    case "theme":
      preferences.theme = change.theme;
      break;
    case "plan":
      preferences.plan = change.plan;
      break;
    case "tools":
      preferences.toolsOpen = change.toolsOpen === "true";
      break;
    case "order":
      preferences.toolOrder = normaliseToolOrder(change.toolOrder.split(","));
      break;
    case "move": {
      const index = preferences.toolOrder.indexOf(change.tool as ToolId);
      preferences.toolOrder = moveTool(
        preferences.toolOrder,
        change.tool,
        index + (change.direction === "up" ? -1 : 1),
      );
      break;
    }
    case "reset-order":
      preferences.toolOrder = DEFAULT_TOOL_ORDER;
      break;
    case "language": {
      preferences.language = change.language;
      // Signed in, the choice follows the person to any browser they sign in on.
      const user = currentUser(context);
      if (user) await saveLanguage(user.id, change.language);
      break;
    }
  }
  const headers = { "Set-Cookie": await serializePreferences(preferences) };
  // A plan's toast in the screen's language (a language change is answered in the new one).
  const { t } = await screenTranslator(context, request);
  return answerEnhanced(form, {
    data: { preferences },
    init: { headers },
    redirectTo: safeRedirectPath(form.get("redirectTo"), "/"),
    redirectInit: { headers },
    // docs/screens.md#roles-and-permissions: a plan change says so; without JavaScript the flash message carries it (FlashFallback).
    toast:
      change.intent === "plan"
        ? { type: "success", message: t("{{plan}} Plan Activated!", { plan: t(change.plan) }) }
        : undefined,
  });
}

export function loader() {
  throw redirect("/dashboard");
}
