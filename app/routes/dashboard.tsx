import { useEffect, useRef } from "react";
import { createContext, redirect } from "react-router";
import { firstWelcomeOfSignIn } from "~/browser/welcome";
import type { ShellHandle } from "~/components/shell/shell-frame";
import { readContentRows, type ContentListItem, type JustChangedRow } from "~/components/content/content-rows";
import { ContentList } from "~/components/dashboard/dashboard-list";
import { useMarkupOnly } from "~/components/ui/use-markup-only";
import { Icon } from "~/components/ui/icon";
import { PlanSection, ToolsSection } from "~/components/dashboard/dashboard-preferences";
import { StorageMeter } from "~/components/shell/storage-meter";
import { useFollowLinksInApp } from "~/components/shell/in-app-links";
import { ThemeToggle } from "~/components/shell/theme-toggle";
import { DASHBOARD_TOAST_MS, toast } from "~/components/shell/toasts";
import { currentUser, requireUser } from "~/auth/auth.server";
import { SESSION_COOKIE } from "~/auth/session.server";
import { env } from "~/lib/settings/env.server";
import { keepPersonalPages } from "~/lib/page-cache/kept-pages.server";
import { screenLanguageOf } from "~/auth/screen-language.server";
import { withHeaders } from "~/lib/http/security.server";
import { justChanged } from "~/lib/screens/just-changed.server";
import { sendInMarkupOnly } from "~/lib/screens/markup-only.server";
import { preferencesOf } from "~/lib/screens/preferences.server";
import { CONTENT_PAGE_SIZE } from "~/models/content/content-input.server";
import { listContentSummaries, type ContentSummary } from "~/models/content/content.server";
import { contentState, type ContentState } from "~/models/content/content-state.server";
import { SEARCH_QUERY_MAX, searchContentSummaries } from "~/models/content/content-search.server";
import {
  contentCursor,
  contentKeyOf,
  listContentSummariesAfter,
  screenCursorKey,
} from "~/models/content/content-keyset.server";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import type { Route } from "./+types/dashboard";

/**
 * The page is built from the person's content, their identity and their preference cookie only, so
 * it is rendered once per content version and answered from memory until an item changes, with an ETag
 * a browser revalidates (304).
 */
export const middleware: Route.MiddlewareFunction[] = [
  keepPersonalPages({
    personOf: (context) => currentUser(context)?.id ?? null,
    // The storage meter shows the files' bytes beside the text's (which moves the content version) and the quota.
    versionOf: async (personId, context) => {
      const state = await contentStateOf(context, personId);
      return state ? `${state.version}.${state.mediaBytes}.${state.quotaBytes}` : null;
    },
    sessionCookie: SESSION_COOKIE,
    languageOf: screenLanguageOf,
  }),
  // Inside the kept-page cache: the page that highlights a row clears the note (a Set-Cookie), so it is never kept.
  async ({ request, context }, next) => {
    const { value, clear } = await justChanged.take(request);
    if (!clear) return next();
    context.set(justChangedContext, value);
    return withHeaders(await next(), (headers) => headers.append("Set-Cookie", clear));
  },
];

/** The row a plain form has just made or pinned (the one-time note), for the loader. */
const justChangedContext = createContext<JustChangedRow | null>(null);

/** The person's content version and item count, read once per request (the kept page's key and the list's total share it). */
const contentStateContext = createContext<Promise<ContentState | null> | null>(null);
function contentStateOf(context: Route.LoaderArgs["context"], personId: string) {
  let state = context.get(contentStateContext);
  if (!state) context.set(contentStateContext, (state = contentState(personId)));
  return state;
}

/** The shell's skip link (its first Tab) goes past the plan and the twelve tools to the content list. */
export const handle: ShellHandle = {
  skipLink: { href: "#content", label: msg("Skip to your content") },
  ownThemeToggle: true,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const preferences = await preferencesOf(context, request);
  const editing = new URL(request.url).searchParams.get("edit") === "1";
  const { items, ...content } = await loadContentPage(user.id, request, context);
  const state = await contentStateOf(context, user.id);
  // Files and text count toward the quota together; the meter says how much of each.
  const usage = {
    usedBytes: (state?.mediaBytes ?? 0) + (state?.textBytes ?? 0),
    quotaBytes: state?.quotaBytes ?? env.storageQuotaBytes,
    textBytes: state?.textBytes ?? 0,
  };
  // The rows are in the page's markup; a document does not also carry them as data (decision 0024).
  return {
    email: user.email,
    preferences,
    editing,
    usage,
    justChanged: context.get(justChangedContext),
    content: { ...content, items: sendInMarkupOnly(context, request, CONTENT_ROWS, items) },
  };
}

/** The key the content rows are handed to the server render under, for a document. */
const CONTENT_ROWS = "dashboard-content-rows";

/**
 * One page of the content list (?page=N, 100 items a page), or of the matches of the search box
 * (?q=, the step that added the library, search and export; a longer query is cut to the API's 500 characters). docs/screens.md#roles-and-permissions: a load failure sends
 * the person to /login.
 */
async function loadContentPage(userId: string, request: Request, context: Route.LoaderArgs["context"]) {
  const params = new URL(request.url).searchParams;
  const requested = Number(params.get("page"));
  const wanted = Number.isInteger(requested) && requested > 1 ? requested : 1;
  const query = (params.get("q") ?? "").slice(0, SEARCH_QUERY_MAX).trim();
  // A Next link carries the cursor of its page's last row (decision 0076); one that does not read is ignored.
  const after = wanted > 1 ? screenCursorKey(params.get("cursor")) : null;
  // One row past the page says whether another follows, and the page's last row is the next one's cursor.
  const range = (page: number) => ({ limit: CONTENT_PAGE_SIZE + 1, offset: (page - 1) * CONTENT_PAGE_SIZE });
  const shown = (rows: ContentSummary[]) => ({
    ...listItems(rows.slice(0, CONTENT_PAGE_SIZE)),
    next: rows.length > CONTENT_PAGE_SIZE ? contentCursor(contentKeyOf(rows[CONTENT_PAGE_SIZE - 1]!)) : null,
  });
  try {
    if (query) {
      // One search answers the page and its total; a page past the end shows the last one.
      let page = wanted;
      let found = await searchContentSummaries(
        userId,
        query,
        after ? { limit: range(page).limit, after } : range(page),
      );
      const lastPage = Math.max(1, Math.ceil(found.total / CONTENT_PAGE_SIZE));
      if (page > lastPage) found = await searchContentSummaries(userId, query, range((page = lastPage)));
      return { ...shown(found.items), total: found.total, page, pageSize: CONTENT_PAGE_SIZE, query };
    }
    const total = (await contentStateOf(context, userId))?.count ?? 0;
    const page = Math.min(wanted, Math.max(1, Math.ceil(total / CONTENT_PAGE_SIZE)));
    const rows =
      after && page === wanted
        ? await listContentSummariesAfter(userId, CONTENT_PAGE_SIZE + 1, after)
        : await listContentSummaries(userId, range(page));
    return { ...shown(rows), total, page, pageSize: CONTENT_PAGE_SIZE, query };
  } catch (error) {
    console.error("[dashboard] loading content failed", error);
    throw redirect("/login");
  }
}

/**
 * What the list shows and needs, nothing more: titles, and instead of each timestamp the pinned
 * items' ranks by last change on the page (the unpinned ones are already in that order), so a pin
 * can re-sort the list before the server answers.
 */
function listItems(rows: ContentSummary[]): { items: ContentListItem[]; pinnedRanks: number[] } {
  // The rows come pinned first, each group by last change (newest first, then id): a pinned row's rank
  // is how many rows of either group changed after it, a merge of the two orders (no sort, no map).
  const later = (a: ContentSummary, b: ContentSummary) =>
    a.updated_at !== b.updated_at ? a.updated_at > b.updated_at : a.id > b.id;
  const firstUnpinned = rows.findIndex((row) => !row.pinned);
  const start = firstUnpinned < 0 ? rows.length : firstUnpinned;
  const pinnedRanks: number[] = [];
  for (let index = 0, unpinned = start; index < start; index++) {
    while (unpinned < rows.length && later(rows[unpinned]!, rows[index]!)) unpinned++;
    pinnedRanks.push(index + unpinned - start);
  }
  return { items: rows.map((row) => ({ id: row.id, title: row.title, pinned: row.pinned })), pinnedRanks };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  const { preferences, editing, email, content, usage, justChanged } = loaderData;
  const contentRows = useMarkupOnly(CONTENT_ROWS, content.items, content, readContentRows);
  const followLink = useFollowLinksInApp();

  // docs/screens.md#screens-and-routes: a welcome toast on arrival (dashboard toasts close after 3 s), once per sign-in.
  const welcomed = useRef(false);
  useEffect(() => {
    if (welcomed.current) return;
    welcomed.current = true;
    if (firstWelcomeOfSignIn(email))
      toast.info(t("Welcome back, {{plan}} user!", { plan: t(preferences.plan) }), { autoClose: DASHBOARD_TOAST_MS });
  }, [preferences.plan, email, t]);

  return (
    <main className="page dashboard">
      <title>{t("Dashboard · Creative AI Studio")}</title>
      <meta
        name="description"
        content={t("Your Creative AI Studio dashboard: your writing, your tools and your plan.")}
      />
      {/* Home is a plain link, followed in the app by the header (in-app-links.ts). */}
      <header className="dashboard-header" onClick={followLink}>
        <a className="button button-ghost" href="/" aria-label={t("Home")}>
          <Icon name="house" />
          {t("Home")}
        </a>
        <h1>{t("Dashboard")}</h1>
        <div className="dashboard-controls">
          <ThemeToggle />
          {/* A plain link followed in the app by the header's handler (in-app-links.ts): a <Link> costs
              the page's render more (decision 0081). */}
          <a className="button button-ghost" href={editing ? "/dashboard" : "/dashboard?edit=1"} data-keep-scroll>
            <Icon name={editing ? "check" : "pencil"} />
            {editing ? t("Done editing") : t("Edit mode")}
          </a>
        </div>
      </header>
      <p className="muted">{t("Signed in as {{email}}", { email })}</p>
      <StorageMeter usage={usage} />

      <PlanSection savedPlan={preferences.plan} />
      <ToolsSection savedToolsOpen={preferences.toolsOpen} savedOrder={preferences.toolOrder} editing={editing} />

      <ContentList
        items={contentRows}
        pinnedRanks={content.pinnedRanks}
        total={content.total}
        page={content.page}
        pageSize={content.pageSize}
        next={content.next}
        query={content.query}
        justChanged={justChanged}
      />
      <section className="account-export" aria-label={t("Your data")}>
        <a className="button button-ghost" href="/api/account/export" download>
          {t("Export my data")}
        </a>
        <span className="muted"> {t("a zip of your content, projects and library files")}</span>
      </section>
    </main>
  );
}
