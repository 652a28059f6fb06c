import { Link } from "react-router";

/** The header of the AI tools' screens: back to the dashboard, the title, and optional badges. */
export function AiPageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <header className="ai-header">
      <Link className="button button-ghost" to="/dashboard">
        ← Dashboard
      </Link>
      <h1>{title}</h1>
      {children ? <div className="ai-badges">{children}</div> : null}
    </header>
  );
}

/** Says plainly that a capability runs on the offline provider, not on an AI model. */
export function OfflineBadge({ label, title }: { label: string; title: string }) {
  return (
    <span className="ai-badge ai-badge-offline" title={title} data-testid="offline-badge">
      {label}
    </span>
  );
}
