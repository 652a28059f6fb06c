import { createContext, type RouterContextProvider } from "react-router";
import { LANGUAGE_TAGS, PSEUDO_LANGUAGE, type ScreenLanguage } from "~/common/i18n/languages";
import { negotiateLanguage } from "~/common/i18n/negotiate";
import { preferencesOf } from "~/lib/screens/preferences.server";
import { translatorFor } from "~/lib/i18n/catalogues.server";
import { env } from "~/lib/settings/env.server";
import { currentUser } from "./auth.server";

/** The tags a person may choose here: the eight languages, and the pseudo-language where PSEUDO_LANGUAGE is on. */
export function choosableLanguages(): readonly ScreenLanguage[] {
  return env.pseudoLanguage ? [...LANGUAGE_TAGS, PSEUDO_LANGUAGE] : LANGUAGE_TAGS;
}

export function isChoosable(tag: unknown): tag is ScreenLanguage {
  return typeof tag === "string" && (choosableLanguages() as readonly string[]).includes(tag);
}

const languageContext = createContext<Promise<ScreenLanguage> | null>(null);

/**
 * The language of this request's screens (docs/translating.md#which-language): the signed-in person's
 * saved choice, else this browser's (the preferences cookie), else the best of Accept-Language that
 * is offered, else English. Worked out once per request: the root loader and the document's render ask.
 */
export function screenLanguageOf(context: Readonly<RouterContextProvider>, request: Request): Promise<ScreenLanguage> {
  let language = context.get(languageContext);
  if (!language) {
    language = resolve(context, request);
    context.set(languageContext, language);
  }
  return language;
}

async function resolve(context: Readonly<RouterContextProvider>, request: Request): Promise<ScreenLanguage> {
  const saved = currentUser(context)?.language;
  if (isChoosable(saved)) return saved;
  const { language } = await preferencesOf(context, request);
  if (isChoosable(language)) return language;
  return negotiateLanguage(request.headers.get("Accept-Language")) as ScreenLanguage;
}

/** The translator for this request's screens, for a loader's or an action's texts (toasts, screen messages). */
export async function screenTranslator(context: Readonly<RouterContextProvider>, request: Request) {
  return translatorFor(await screenLanguageOf(context, request));
}
