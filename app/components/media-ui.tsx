import { Link, useRouteLoaderData } from "react-router";
import type { FlashToast } from "./toasts";
import { useHydrated } from "./use-hydrated";

/** What a media screen says about the last thing the person did (in the page; toasts need JavaScript). */
export interface Outcome {
  ok: boolean;
  message: string;
  /** The server's reason, e.g. "File is too large (the limit is 25 MiB)". */
  detail?: string | null;
}

export function OutcomeMessage({ outcome }: { outcome: Outcome | null | undefined }) {
  if (!outcome) return null;
  return (
    <p className={`message ${outcome.ok ? "message-success" : "message-error"}`} role={outcome.ok ? "status" : "alert"} data-testid="media-outcome">
      {outcome.message}
      {outcome.detail ? <span className="message-detail">{outcome.detail}</span> : null}
    </p>
  );
}

/**
 * The flash message of a plain-form redirect (e.g. "🗑️ File deleted"), shown in the page until the
 * app is hydrated (and always without JavaScript); once hydrated the toast shows it.
 */
export function FlashMessage() {
  const hydrated = useHydrated();
  const rootData = useRouteLoaderData("root") as { toast?: FlashToast | null } | undefined;
  const flash = rootData?.toast;
  if (hydrated || !flash) return null;
  return <OutcomeMessage outcome={{ ok: flash.type !== "error", message: flash.message }} />;
}

/** SPEC §4 Upload: "uploading (with a percent)". */
export function UploadProgress({ percent, label = "Uploading..." }: { percent: number | null; label?: string }) {
  if (percent === null) return null;
  return (
    <div className="upload-progress" role="status" aria-live="polite">
      <progress max={100} value={percent} aria-label="Upload progress" />
      <span>
        {label} {percent}%
      </span>
    </div>
  );
}

/** A screen's header: a way back (the dashboard unless said otherwise), the title, and optional actions. */
export function MediaHeader({
  title,
  back = { to: "/dashboard", label: "Dashboard" },
  children,
}: {
  title: string;
  back?: { to: string; label: string };
  children?: React.ReactNode;
}) {
  return (
    <header className="media-header">
      <Link className="button button-ghost" to={back.to}>
        ← {back.label}
      </Link>
      <h1>{title}</h1>
      {children}
    </header>
  );
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
