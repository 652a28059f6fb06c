import { useEffect, useRef } from "react";
import { createContext, Link, redirect, useFetcher, useFetchers, useLocation } from "react-router";
import { focusElement } from "~/browser/focus";
import { firstWelcomeOfSignIn } from "~/browser/welcome";
import type { ShellHandle } from "~/components/shell-frame";
import { readContentRows, type ContentListItem } from "~/components/content-rows";
import { ContentList } from "~/components/dashboard-list";
import { useMarkupOnly } from "~/components/use-markup-only";
import { Icon } from "~/components/icon";
import { EnhancedField } from "~/components/enhanced-field";
import { StorageMeter } from "~/components/storage-meter";
import { useFollowLinksInApp } from "~/components/in-app-links";
import { ThemeToggle } from "~/components/theme-toggle";
import { DASHBOARD_TOAST_MS, toast } from "~/components/toasts";
import { ToolGrid } from "~/components/tool-grid";
import { currentUser, requireUser } from "~/auth/auth.server";
import { SESSION_COOKIE } from "~/auth/session.server";
import { env } from "~/lib/env.server";
import { keepPersonalPages } from "~/lib/http/kept-pages.server";
import { sendInMarkupOnly } from "~/lib/markup-only.server";
import { preferencesOf } from "~/lib/preferences.server";
import { CONTENT_PAGE_SIZE } from "~/models/content-input.server";
import { listContentSummaries, type ContentSummary } from "~/models/content.server";
import { contentState, type ContentState } from "~/models/content-state.server";
import { SEARCH_QUERY_MAX, searchContentSummaries } from "~/models/content-search.server";
import { DASHBOARD_TOOLS, normaliseToolOrder, PLANS, type Plan, type ToolId } from "~/shared/tools";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [
  { title: "Dashboard · Creative AI Studio" },
  { name: "description", content: "Your Creative AI Studio dashboard: your writing, your tools and your plan." },
];

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
  }),
];

/** The person's content version and item count, read once per request (the kept page's key and the list's total share it). */
const contentStateContext = createContext<Promise<ContentState | null> | null>(null);
function contentStateOf(context: Route.LoaderArgs["context"], personId: string) {
  let state = context.get(contentStateContext);
  if (!state) context.set(contentStateContext, (state = contentState(personId)));
  return state;
}

/** The shell's skip link (its first Tab) goes past the plan and the twelve tools to the content list. */
export const handle: ShellHandle = {
  skipLink: { href: "#content", label: "Skip to your content" },
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
  const range = (page: number) => ({ limit: CONTENT_PAGE_SIZE, offset: (page - 1) * CONTENT_PAGE_SIZE });
  try {
    if (query) {
      // One search answers the page and its total; a page past the end shows the last one.
      let page = wanted;
      let found = await searchContentSummaries(userId, query, range(page));
      const lastPage = Math.max(1, Math.ceil(found.total / CONTENT_PAGE_SIZE));
      if (page > lastPage) found = await searchContentSummaries(userId, query, range((page = lastPage)));
      return { ...listItems(found.items), total: found.total, page, pageSize: CONTENT_PAGE_SIZE, query };
    }
    const total = (await contentStateOf(context, userId))?.count ?? 0;
    const page = Math.min(wanted, Math.max(1, Math.ceil(total / CONTENT_PAGE_SIZE)));
    const rows = await listContentSummaries(userId, range(page));
    return { ...listItems(rows), total, page, pageSize: CONTENT_PAGE_SIZE, query };
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
  const byLastChange = [...rows].sort((a, b) =>
    a.updated_at !== b.updated_at ? (a.updated_at < b.updated_at ? 1 : -1) : a.id < b.id ? 1 : -1,
  );
  const rank = new Map(byLastChange.map((row, index) => [row.id, index]));
  return {
    items: rows.map((row) => ({ id: row.id, title: row.title, pinned: row.pinned })),
    pinnedRanks: rows.filter((row) => row.pinned).map((row) => rank.get(row.id)!),
  };
}

/** Hidden fields every preference form carries. */
function PreferenceFields({ intent }: { intent: string }) {
  const location = useLocation();
  return (
    <>
      <EnhancedField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
    </>
  );
}

/** The value a pending preference fetcher is sending, so the screen updates before the server answers. */
function usePendingPreference(intent: string, field: string): string | null {
  const pending = useFetchers().findLast((fetcher) => fetcher.formData?.get("intent") === intent);
  const value = pending?.formData?.get(field);
  return typeof value === "string" ? value : null;
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { preferences, editing, email, content, usage } = loaderData;
  const contentRows = useMarkupOnly(CONTENT_ROWS, content.items, content, readContentRows);
  const planFetcher = useFetcher({ key: "plan" });
  const toolsFetcher = useFetcher({ key: "tools" });
  const orderFetcher = useFetcher({ key: "order" });
  const pendingOrder = usePendingPreference("order", "toolOrder");
  const pendingMove = usePendingPreference("move", "tool");

  const plan = (usePendingPreference("plan", "plan") ?? preferences.plan) as Plan;
  const toolsOpen = (usePendingPreference("tools", "toolsOpen") ?? String(preferences.toolsOpen)) === "true";
  const order: ToolId[] = pendingOrder ? normaliseToolOrder(pendingOrder.split(",")) : preferences.toolOrder;
  const followLink = useFollowLinksInApp();

  // docs/screens.md#screens-and-routes: a welcome toast on arrival (dashboard toasts close after 3 s), once per sign-in.
  const welcomed = useRef(false);
  useEffect(() => {
    if (welcomed.current) return;
    welcomed.current = true;
    if (firstWelcomeOfSignIn(email))
      toast.info(`Welcome back, ${preferences.plan} user!`, { autoClose: DASHBOARD_TOAST_MS });
  }, [preferences.plan, email]);

  // docs/screens.md#roles-and-permissions: choosing a plan only sets the label and says so.
  // Each answer is a new object, so choosing the same plan twice announces it twice; a re-render does not.
  const announcedPlan = useRef<unknown>(null);
  useEffect(() => {
    const data = planFetcher.data as { preferences?: { plan: Plan } } | undefined;
    if (planFetcher.state !== "idle" || !data?.preferences || announcedPlan.current === data) return;
    announcedPlan.current = data;
    toast.success(`${data.preferences.plan} Plan Activated!`, { autoClose: DASHBOARD_TOAST_MS });
  }, [planFetcher.state, planFetcher.data]);

  const saveOrder = (next: ToolId[]) => {
    orderFetcher.submit(
      { enhanced: "1", intent: "order", toolOrder: next.join(","), redirectTo: "/dashboard" },
      { method: "post", action: "/preferences" },
    );
  };

  return (
    <main className="page dashboard">
      {/* Home is a plain link, followed in the app by the header (in-app-links.ts). */}
      <header className="dashboard-header" onClick={followLink}>
        <a className="button button-ghost" href="/" aria-label="Home">
          <Icon name="house" />
          Home
        </a>
        <h1>Dashboard</h1>
        <div className="dashboard-controls">
          <ThemeToggle />
          <Link
            className="button button-ghost"
            to={editing ? "/dashboard" : "/dashboard?edit=1"}
            preventScrollReset
            discover="none"
          >
            <Icon name={editing ? "check" : "pencil"} />
            {editing ? "Done editing" : "Edit mode"}
          </Link>
        </div>
      </header>
      <p className="muted">{`Signed in as ${email}`}</p>
      <StorageMeter usage={usage} />

      <section className="card plan" aria-label="Plan">
        <p>
          Current plan: <strong data-testid="current-plan">{plan}</strong>
        </p>
        <planFetcher.Form method="post" action="/preferences" className="plan-buttons">
          <PreferenceFields intent="plan" />
          {PLANS.map((name) => (
            <button
              key={name}
              type="submit"
              name="plan"
              value={name}
              className={plan === name ? "button button-primary" : "button"}
              aria-pressed={plan === name}
            >
              {name}
            </button>
          ))}
        </planFetcher.Form>
      </section>

      <section className="tools" aria-label="Tools section">
        <toolsFetcher.Form method="post" action="/preferences" className="inline-form">
          <PreferenceFields intent="tools" />
          <input type="hidden" name="toolsOpen" value={String(!toolsOpen)} />
          <button type="submit" className="button" aria-expanded={toolsOpen}>
            {toolsOpen ? "Close Tools" : "Open Tools"}
          </button>
        </toolsFetcher.Form>
        {editing ? (
          <p className="muted">Drag the tools (or use the arrows) to reorder them. The order is kept.</p>
        ) : null}
        {toolsOpen ? (
          <ToolGrid
            order={order}
            editing={editing}
            onReorder={saveOrder}
            renderMoveControls={(id, index) => (
              <span className="tool-move">
                <MoveButton id={id} direction="up" disabled={index === 0 || pendingMove !== null} />
                <MoveButton id={id} direction="down" disabled={index === order.length - 1 || pendingMove !== null} />
              </span>
            )}
          />
        ) : null}
      </section>

      <ContentList
        items={contentRows}
        pinnedRanks={content.pinnedRanks}
        total={content.total}
        page={content.page}
        pageSize={content.pageSize}
        query={content.query}
      />
      <section className="account-export" aria-label="Your data">
        <a className="button button-ghost" href="/api/account/export" download>
          Export my data
        </a>
        <span className="muted"> a zip of your content, projects and library files</span>
      </section>
    </main>
  );
}

function MoveButton({ id, direction, disabled }: { id: ToolId; direction: "up" | "down"; disabled: boolean }) {
  const fetcher = useFetcher();
  // The arrows are disabled while a move is saved, and the row moves: afterwards the focus goes back to
  // the moved tool's arrow (the other one when it reached the end), never left on <body>.
  const moving = useRef(false);
  useEffect(() => {
    if (fetcher.state !== "idle") {
      moving.current = true;
      return;
    }
    if (!moving.current) return;
    moving.current = false;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const arrows =
      document.querySelector(`[data-tool-id="${id}"]`)?.querySelectorAll<HTMLButtonElement>("button[data-direction]") ??
      [];
    const same = [...arrows].find((arrow) => arrow.dataset.direction === direction && !arrow.disabled);
    focusElement(same ?? [...arrows].find((arrow) => !arrow.disabled));
  }, [fetcher.state, id, direction]);
  return (
    <fetcher.Form method="post" action="/preferences" className="inline-form">
      <PreferenceFields intent="move" />
      <input type="hidden" name="tool" value={id} />
      <input type="hidden" name="direction" value={direction} />
      <button
        type="submit"
        className="icon-button"
        disabled={disabled}
        data-direction={direction}
        aria-label={`Move ${DASHBOARD_TOOLS.find((tool) => tool.id === id)?.label} ${direction}`}
      >
        <Icon name={direction === "up" ? "arrow-up" : "arrow-down"} />
      </button>
    </fetcher.Form>
  );
}
