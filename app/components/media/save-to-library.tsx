import { useState } from "react";
import { Link } from "react-router";
import { ApiError, detailText, saveToLibrary } from "~/browser/api-client";
import { msg } from "~/common/i18n/translate";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { toast } from "~/components/shell/toasts";

/** the style of docs/screens.md#error-messages: what failed, then the server's reason when it gave one. */
export const SAVE_FAILED = msg("Failed to save to library.");

/** Whether a capture can go to the library as `kind`: photos are PNG, clips WebM, memos M4A (MP4 audio). */
export function savableAs(kind: "photo" | "clip" | "memo", type: string): boolean {
  const container = type.split(";")[0].trim().toLowerCase();
  if (kind === "photo") return container === "image/png";
  if (kind === "clip") return container === "video/webm";
  return container === "audio/mp4" || container === "audio/x-m4a" || container === "audio/m4a";
}

/**
 * "Save to library" for a capture kept in the page (decision 0022): posts it to POST /api/library/upload
 * through the one API client, then says so with a toast and a link to the library; a refusal (the
 * storage quota, a format the library does not take) is said as a toast and in the page. The
 * download buttons beside it are unchanged.
 */
export function SaveToLibraryButton({
  source,
  filename,
  kind,
  label,
}: {
  /** The capture (a Blob: the page's CSP keeps scripts from fetching blob: URLs). */
  source: Blob;
  filename: string;
  kind: "photo" | "clip" | "memo";
  /** The button's text, translated ("Save to library" when unset). */
  label?: string;
}) {
  return <SaveToLibrary save={() => saveToLibrary(source, filename, kind)} label={label} />;
}

/**
 * The button itself, for anything a screen can keep: `save` keeps it (resolving the library file's
 * name, or throwing an ApiError with the server's reason), and the button confirms as above: a toast,
 * "In your library" with a check icon and a link to the library, or the failure and its reason. (The assistant's spoken
 * replies keep their unkept speech this way.)
 */
export function SaveToLibrary({
  save,
  label,
}: {
  save: () => Promise<{ name: string }>;
  /** The button's text, translated ("Save to library" when unset). */
  label?: string;
}) {
  const { t } = useT();
  const [state, setState] = useState<{ phase: "idle" | "saving" | "saved" | "failed"; detail?: string }>({
    phase: "idle",
  });
  const keep = async () => {
    setState({ phase: "saving" });
    try {
      const saved = await save();
      setState({ phase: "saved" });
      toast.success(t("Saved to your library: {{name}}", { name: saved.name }));
    } catch (error) {
      const detail = error instanceof ApiError ? error.detail : undefined;
      setState({ phase: "failed", detail });
      toast.error(detail ? `${t(SAVE_FAILED)} ${detailText(t, detail)}` : t(SAVE_FAILED));
    }
  };
  return (
    <span className="save-to-library">
      <button
        type="button"
        className="button button-small"
        onClick={() => void keep()}
        disabled={state.phase === "saving" || state.phase === "saved"}
      >
        {state.phase === "saved" ? <Icon name="check" /> : <Icon name="save" />}
        {state.phase === "saving"
          ? t("Saving…")
          : state.phase === "saved"
            ? t("In your library")
            : (label ?? t("Save to library"))}
      </button>
      {state.phase === "saved" ? (
        <Link className="button button-small button-ghost" to="/library">
          {t("Open library")}
        </Link>
      ) : null}
      {state.phase === "failed" ? (
        <span className="message message-error" role="alert">
          {t(SAVE_FAILED)}
          {state.detail ? <span className="message-detail">{detailText(t, state.detail)}</span> : null}
        </span>
      ) : null}
    </span>
  );
}
