import { useEffect, useRef } from "react";
import { useFetcher, useFetchers, useLocation } from "react-router";
import { focusElement } from "~/browser/focus";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { Icon } from "~/components/ui/icon";
import { DASHBOARD_TOAST_MS, toast } from "~/components/shell/toasts";
import { ToolGrid } from "~/components/dashboard/tool-grid";
import { DASHBOARD_TOOLS, normaliseToolOrder, PLANS, type Plan, type ToolId } from "~/common/tools";
import type { action } from "~/routes/preferences";
import { useT } from "~/components/ui/i18n";

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

/** The dashboard's plan: the label and the buttons that set it (the plan only sets the label and says so). */
export function PlanSection({ savedPlan }: { savedPlan: Plan }) {
  const { t } = useT();
  const planFetcher = useFetcher<typeof action>({ key: "plan" });
  const plan = (usePendingPreference("plan", "plan") ?? savedPlan) as Plan;

  // docs/screens.md#roles-and-permissions: choosing a plan only sets the label and says so.
  // Each answer is a new object, so choosing the same plan twice announces it twice; a re-render does not.
  const announcedPlan = useRef<unknown>(null);
  useEffect(() => {
    const data = planFetcher.data;
    if (planFetcher.state !== "idle" || !data || !("preferences" in data) || announcedPlan.current === data) return;
    announcedPlan.current = data;
    toast.success(t("{{plan}} Plan Activated!", { plan: t(data.preferences.plan) }), { autoClose: DASHBOARD_TOAST_MS });
  }, [planFetcher.state, planFetcher.data, t]);

  return (
    <section className="card plan" aria-label={t("Plan")}>
      <p>
        {t("Current plan:")} <strong data-testid="current-plan">{t(plan)}</strong>
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
            {t(name)}
          </button>
        ))}
      </planFetcher.Form>
    </section>
  );
}

/** The dashboard's tools: open or closed, and in edit mode reordered by dragging or the arrows. */
export function ToolsSection(props: { savedToolsOpen: boolean; savedOrder: ToolId[]; editing: boolean }) {
  const { savedToolsOpen, savedOrder, editing } = props;
  const { t } = useT();
  const toolsFetcher = useFetcher({ key: "tools" });
  const orderFetcher = useFetcher({ key: "order" });
  const pendingOrder = usePendingPreference("order", "toolOrder");
  const pendingMove = usePendingPreference("move", "tool");
  const toolsOpen = (usePendingPreference("tools", "toolsOpen") ?? String(savedToolsOpen)) === "true";
  const order: ToolId[] = pendingOrder ? normaliseToolOrder(pendingOrder.split(",")) : savedOrder;

  const saveOrder = (next: ToolId[]) => {
    orderFetcher.submit(
      { enhanced: "1", intent: "order", toolOrder: next.join(","), redirectTo: "/dashboard" },
      { method: "post", action: "/preferences" },
    );
  };

  return (
    <section className="tools" aria-label={t("Tools section")}>
      <toolsFetcher.Form method="post" action="/preferences" className="inline-form">
        <PreferenceFields intent="tools" />
        <input type="hidden" name="toolsOpen" value={String(!toolsOpen)} />
        <button type="submit" className="button" aria-expanded={toolsOpen}>
          {toolsOpen ? t("Close Tools") : t("Open Tools")}
        </button>
      </toolsFetcher.Form>
      {editing ? (
        <p className="muted">{t("Drag the tools (or use the arrows) to reorder them. The order is kept.")}</p>
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
  );
}

function MoveButton({ id, direction, disabled }: { id: ToolId; direction: "up" | "down"; disabled: boolean }) {
  const { t } = useT();
  const tool = t(DASHBOARD_TOOLS.find((entry) => entry.id === id)?.label ?? id);
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
        aria-label={direction === "up" ? t("Move {{tool}} up", { tool }) : t("Move {{tool}} down", { tool })}
      >
        <Icon name={direction === "up" ? "arrow-up" : "arrow-down"} />
      </button>
    </fetcher.Form>
  );
}
