import { useFetcher, useFetchers, useLocation, useRouteLoaderData } from "react-router";
import type { Theme } from "~/common/tools";
import { EnhancedField } from "~/components/ui/enhanced-field";
import type { loader } from "~/root";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";

/** The theme as the person last chose it, counting a toggle still on its way to the server. */
export function useTheme(): Theme {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const pending = useFetchers().find((fetcher) => fetcher.formData?.get("intent") === "theme");
  const pendingTheme = pending?.formData?.get("theme");
  return pendingTheme === "light" || pendingTheme === "dark" ? pendingTheme : (rootData?.theme ?? "dark");
}

/**
 * Dark/light toggle: a plain form without JavaScript, an optimistic fetcher with it. Its one label says
 * what a press will do ("Switch to dark theme"), the same words wherever it shows (a
 * "Dark mode: off" state label and a "Dark theme" action label disagreed); `data-next` picks its icon.
 */
export function ThemeToggle({ className = "" }: { className?: string }) {
  const { t } = useT();
  const fetcher = useFetcher({ key: "theme" });
  const theme = useTheme();
  const location = useLocation();
  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <fetcher.Form method="post" action="/preferences" className="inline-form">
      <EnhancedField />
      <input type="hidden" name="intent" value="theme" />
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        className={className ? `button button-ghost ${className}` : "button button-ghost"}
        data-next={next}
      >
        {t(themeToggleLabel(next))}
      </button>
    </fetcher.Form>
  );
}

/** The toggle's label in English, a catalogue key: the screen shows `t(themeToggleLabel(next))`. */
export function themeToggleLabel(next: Theme): string {
  return next === "dark" ? msg("Switch to dark theme") : msg("Switch to light theme");
}
