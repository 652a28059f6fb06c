import type { IconName } from "~/common/icons";
import { PageHeader } from "./page-header";

/** The header of the AI tools' screens: the one page header, with optional badges. */
export function AiPageHeader({
  title,
  icon,
  children,
}: {
  title: string;
  icon?: IconName;
  children?: React.ReactNode;
}) {
  return (
    <PageHeader title={title} icon={icon} className="ai-header">
      {children ? <div className="ai-badges">{children}</div> : null}
    </PageHeader>
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
