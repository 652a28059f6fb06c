import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";
import { LanguageMenu } from "~/components/shell/language-menu";

/** The sign-in screens' top: the studio's logo and a way home (docs/screens.md#sign-in-screens). */
export function AuthHeader() {
  const { t } = useT();
  return (
    <header className="auth-header">
      <Link to="/" className="auth-brand">
        <Icon name="sparkles" />
        Creative AI Studio
      </Link>
      <Link to="/" className="button button-ghost button-small auth-home">
        <Icon name="house" />
        {t("Home")}
      </Link>
      <LanguageMenu />
    </header>
  );
}

/**
 * The rule a new password must meet, said under the field before the first try (the field names it by
 * aria-describedby). `min` comes from the loader: ~/common/account-rules brings zod into the page's script.
 */
export const PASSWORD_RULE_ID = "password-rule";
export function PasswordRule({ min }: { min: number }) {
  const { t } = useT();
  return (
    <span id={PASSWORD_RULE_ID} className="field-hint">
      {t("At least {{min}} characters.", { min })}
    </span>
  );
}

/**
 * Shows or hides what was typed in the form's password fields: a toggle button (aria-pressed), so its
 * name stays "Show password". It needs JavaScript, so it appears only once the page runs it; without
 * it the fields stay password fields.
 */
export function PasswordToggle({
  shown,
  onToggle,
  controls,
}: {
  shown: boolean;
  onToggle: () => void;
  controls: string;
}) {
  const { t } = useT();
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="button button-ghost button-small password-toggle"
      aria-pressed={shown}
      aria-controls={controls}
      onClick={onToggle}
    >
      {t("Show password")}
    </button>
  );
}
