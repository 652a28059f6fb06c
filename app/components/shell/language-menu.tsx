import { useLocation, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";

/**
 * The language menu (docs/translating.md#which-language): a plain form to POST /preferences, so the
 * answer is a whole new page in the chosen language, with or without JavaScript. With JavaScript the
 * choice is sent as soon as it is made; without, by its button.
 */
export function LanguageMenu({ className = "language-menu" }: { className?: string }) {
  const { t, language } = useT();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const location = useLocation();
  const hydrated = useHydrated();
  if (!root) return null;
  return (
    <form method="post" action="/preferences" className={className}>
      <input type="hidden" name="intent" value="language" />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <label>
        <span className="language-menu-label">{t("Language")}</span>{" "}
        <select name="language" defaultValue={language} onChange={(event) => event.currentTarget.form?.requestSubmit()}>
          {root.languages.map(({ tag, name }) => (
            <option key={tag} value={tag} lang={tag}>
              {name}
            </option>
          ))}
        </select>
      </label>{" "}
      <button type="submit" className="button" hidden={hydrated}>
        {t("Change language")}
      </button>
    </form>
  );
}
