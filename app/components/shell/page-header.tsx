import { Link } from "react-router";
import type { IconName } from "~/common/icons";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";

/** The one label for the way back to the dashboard on every tool screen (the wording in docs/screens.md#after-create-and-a-pin). */
export const BACK_TO_DASHBOARD = { to: "/dashboard", label: msg("Back to Dashboard") };

/**
 * One page header for every screen: a way back (the dashboard unless said otherwise; `back={null}`
 * for none), the title with its icon, and the screen's own actions or badges. The way back's label and
 * aria-label are English catalogue keys (msg()) or already translated; the title is the caller's t().
 */
export function PageHeader({
  title,
  icon,
  back = BACK_TO_DASHBOARD,
  className,
  children,
}: {
  title: React.ReactNode;
  icon?: IconName;
  back?: { to: string; label: string; ariaLabel?: string } | null;
  className?: string;
  children?: React.ReactNode;
}) {
  const { t } = useT();
  return (
    <header className={className ? `page-header ${className}` : "page-header"}>
      {back ? (
        <Link
          className="button button-ghost page-back"
          to={back.to}
          aria-label={back.ariaLabel === undefined ? undefined : t(back.ariaLabel)}
        >
          <Icon name="arrow-left" />
          {t(back.label)}
        </Link>
      ) : null}
      <h1>
        {icon ? <Icon name={icon} /> : null}
        {/* A person's own title (a project's, a file's) keeps its own direction inside a right-to-left page. */}
        <bdi>{title}</bdi>
      </h1>
      {children ? <div className="page-header-actions">{children}</div> : null}
    </header>
  );
}

/** A media screen's header: the one page header (a way back, the dashboard unless said otherwise). */
export function MediaHeader({
  title,
  icon,
  back = BACK_TO_DASHBOARD,
  children,
}: {
  title: string;
  icon?: IconName;
  back?: { to: string; label: string };
  children?: React.ReactNode;
}) {
  return (
    <PageHeader title={title} icon={icon} back={back}>
      {children}
    </PageHeader>
  );
}

/** What a list or result says while it has nothing to show (the words in docs/screens.md#error-messages in `children`). */
export function EmptyState({
  icon,
  children,
  className,
}: {
  icon: IconName;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={className ? `empty-state ${className}` : "empty-state"}>
      <Icon name={icon} />
      {children}
    </div>
  );
}

/** Grey bars in the shape of what is loading, under the words that say so ("Loading..." (docs/screens.md)). */
export function Skeleton({ lines = 3, label, className }: { lines?: number; label: string; className?: string }) {
  return (
    <div className={className ? `skeleton ${className}` : "skeleton"} role="status">
      <p className="muted skeleton-label">{label}</p>
      <span className="skeleton-line skeleton-line-title" aria-hidden="true" />
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}
