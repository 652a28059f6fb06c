import { useAsyncValue } from "react-router";
import { safeRedirectPath } from "~/common/safe-redirect";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { DELETE_CONFIRM_TEXT } from "~/components/dashboard/dashboard-list";
import { useT } from "~/components/ui/i18n";

/** The content screen's loaded item, when this panel is inside its <Await> (the title under the question). */
function useLoadedTitle(): string | undefined {
  const loaded = useAsyncValue() as { item?: { title?: unknown } | null } | undefined;
  const title = loaded?.item?.title;
  return typeof title === "string" && title ? title : undefined;
}

/** Without JavaScript, the dashboard's Delete lands here first: docs/screens.md#error-messages "Delete this content?". */
export function DeleteConfirmation({ id, redirectTo }: { id: string; redirectTo: string | null }) {
  const { t } = useT();
  const back = safeRedirectPath(redirectTo, "/dashboard");
  const title = useLoadedTitle();
  return (
    <ConfirmPanel
      question={t(DELETE_CONFIRM_TEXT)}
      confirmLabel={t("Delete")}
      detail={title}
      action={`/content/${encodeURIComponent(id)}`}
      fields={{ intent: "delete", ...(back !== "/dashboard" ? { redirectTo: back } : {}) }}
      cancelTo={back}
    />
  );
}
