import { data } from "react-router";
import { ContentHistory, HistoryNotFound, RESTORE_FAILED } from "~/components/content/history-list";
import { requireUser } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { useT } from "~/components/ui/i18n";
import { text } from "~/lib/screens/forms.server";
import { readFormData } from "~/lib/http/bodies.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/screens/toast.server";
import { DomainError } from "~/lib/domain-error";
import { formIntent } from "~/common/content/pin-form";
import { loadHistory, restoreFromHistory } from "~/services/content/history-screen.server";
import editingStylesheet from "~/styles/editing.css?url";
import historyStylesheet from "~/styles/content-history.css?url";
import type { Route } from "./+types/content.history";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: editingStylesheet },
  { rel: "stylesheet", href: historyStylesheet },
];

/** /content/{id}/history: the piece's versions, one opened (?version=) as a word diff (docs/screens.md#history). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const history = await loadHistory(user.id, params.id, new URL(request.url).searchParams);
  if (!history) return data({ history: null }, { status: 404 });
  return data({ history }, { status: history.versionMissing ? 404 : 200 });
}

/** `restore-version` (a plain form, or a fetcher that follows the redirect): back to the view with a toast. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const say = await screenTranslator(context, request);
  const { t } = say;
  const history = `/content/${encodeURIComponent(params.id)}/history`;
  const form = await readFormData(request).catch(() => null);
  const versionId = form ? text(form.get("version_id")) : "";
  if (!form || formIntent(form) !== "restore-version" || !versionId)
    return redirectWithError(history, t(RESTORE_FAILED));
  try {
    const said = await restoreFromHistory(user.id, params.id, versionId, say);
    return redirectWithSuccess(`/content/${encodeURIComponent(params.id)}`, said);
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) console.error("[history] restore failed", error);
    // A refusal with a reason (413: the storage quota) says it after the failure, each sentence translated.
    const detail = error instanceof DomainError && error.status === 413 ? ` ${t(error.detail)}` : "";
    return redirectWithError(`${history}?version=${encodeURIComponent(versionId)}`, `${t(RESTORE_FAILED)}${detail}`);
  }
}

export default function HistoryScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <main className="page page-narrow content-page history-page">
      <title>{t("History · Creative AI Studio")}</title>
      {loaderData.history ? <ContentHistory history={loaderData.history} /> : <HistoryNotFound />}
    </main>
  );
}
