import { useEffect, useRef } from "react";
import { Form, useFetchers, useLocation, useMatches } from "react-router";
import { DASHBOARD_TOOLS } from "~/common/tools";
import { useFollowLinksInApp } from "./in-app-links";
import { ThemeToggle } from "./theme-toggle";
import { LanguageMenu } from "./language-menu";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";

/** What a screen may ask of the shell through its route `handle`: where the skip link goes; that it has its own theme toggle. */
export interface ShellHandle {
  /** `label` is an English catalogue key (msg()): the shell says it in the screen's language. */
  skipLink?: { href: string; label: string };
  /** The screen's header has the dark-mode toggle in docs/screens.md (the dashboard): the shell then shows none, so a page has one theme control. */
  ownThemeToggle?: boolean;
}

/** A page that runs no script at all (the shared page) says so in its route `handle`: the root renders nothing client-side for it. */
export interface ScriptsHandle {
  withoutScripts?: boolean;
}

const DEFAULT_SKIP = { href: "#main", label: msg("Skip to content") };

const NAV_ITEMS = [{ id: "dashboard", label: msg("Dashboard"), path: "/dashboard" }, ...DASHBOARD_TOOLS];

/** The nav entry a page belongs to: its own path, or the screen it is part of. */
export function navSection(pathname: string): string | null {
  if (pathname.startsWith("/project/")) return "/projects";
  if (pathname.startsWith("/content/")) return "/dashboard";
  if (pathname === "/camera-v2") return "/camera";
  const match = NAV_ITEMS.find((item) => pathname === item.path || pathname.startsWith(`${item.path}/`));
  return match?.path ?? null;
}

/**
 * The app shell of every signed-in screen (decision 0023): the studio's navigation, the theme toggle and
 * the account. One <details> is both: on wide screens CSS keeps its content shown as a sidebar (its
 * summary hidden); on phones it is the top bar's Menu, a drawer that opens without JavaScript. The
 * sidebar is the window's height: its navigation scrolls inside itself and the account corner stays
 * in view (docs/screens.md "Shell and toasts").
 */
export function AppShell({ email, plan, children }: { email: string; plan: string; children: React.ReactNode }) {
  const { t } = useT();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const current = navSection(location.pathname);
  const handles = useMatches().map((match) => match.handle as ShellHandle | undefined);
  const skip = handles.findLast((handle) => handle?.skipLink)?.skipLink ?? DEFAULT_SKIP;
  const ownThemeToggle = handles.some((handle) => handle?.ownThemeToggle);
  const pendingPlan = useFetchers()
    .findLast((fetcher) => fetcher.formData?.get("intent") === "plan")
    ?.formData?.get("plan");
  const shownPlan = typeof pendingPlan === "string" ? pendingPlan : plan;
  const followLink = useFollowLinksInApp();

  // A link followed in the open drawer leaves it closed on the next screen.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.pathname]);

  const closeOnEscape = (event: React.KeyboardEvent<HTMLDetailsElement>) => {
    const details = event.currentTarget;
    if (
      event.key !== "Escape" ||
      !details.open ||
      getComputedStyle(details.querySelector("summary")!).display === "none"
    )
      return;
    details.open = false;
    details.querySelector("summary")?.focus();
  };

  return (
    <div className="shell">
      <a className="skip-link" href={skip.href}>
        {t(skip.label)}
      </a>
      {/* Its links are plain (in-app-links.ts): the bar follows them in the app. */}
      <header className="shell-bar" onClick={followLink}>
        {/* The shell's own icons are CSS masks too (app.css): the dashboard's HTML budget. */}
        <a className="shell-brand" href="/dashboard">
          Creative AI Studio
        </a>
        <details className="shell-menu" ref={menu} onKeyDown={closeOnEscape}>
          <summary className="button button-ghost">{t("Menu")}</summary>
          <div className="shell-panel">
            <nav className="shell-nav" aria-label={t("Studio")}>
              {/* The icons are CSS's, keyed by the link's path (app.css, "Tool icons"). */}
              {NAV_ITEMS.map((item) => (
                <a key={item.id} href={item.path} aria-current={current === item.path ? "page" : undefined}>
                  {t(item.label)}
                </a>
              ))}
            </nav>
            <section className="shell-account" aria-label={t("Account")}>
              <p className="shell-email">
                <a href="/account" aria-current={location.pathname === "/account" ? "page" : undefined}>
                  <span>{email}</span>
                </a>
              </p>
              <p>
                {t("Plan:")} <strong>{t(shownPlan)}</strong>
              </p>
              <div className="shell-account-actions">
                <a
                  className="button button-ghost button-small shell-account-link"
                  href="/account"
                  aria-current={location.pathname === "/account" ? "page" : undefined}
                >
                  {t("Account")}
                </a>
                {ownThemeToggle ? null : <ThemeToggle className="button-small shell-theme" />}
                <Form method="post" action="/logout" className="inline-form" discover="none">
                  <button type="submit" className="button button-ghost button-small shell-logout">
                    {t("Logout")}
                  </button>
                </Form>
              </div>
              <LanguageMenu className="language-menu shell-language" />
            </section>
          </div>
        </details>
      </header>
      <div className="shell-content" id="main" tabIndex={-1}>
        {children}
      </div>
    </div>
  );
}
