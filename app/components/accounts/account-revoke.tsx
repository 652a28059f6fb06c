import { useFetcher } from "react-router";
import { confirmDelete, submitterOf } from "~/browser/confirm-delete";
import { focusAfterRemoval } from "~/browser/focus";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { Icon } from "~/components/ui/icon";
import type { IconName } from "~/common/icons";
import type { clientAction } from "~/routes/account";

/**
 * A token's Revoke or a session's Sign out (./account-tokens.tsx, ./account-sections.tsx): a plain form
 * to /account that asks on the page first without JavaScript (docs/screens.md#dialogs); with it, the
 * app's dialog asks, then a fetcher posts and the row goes, the next row's button taking the focus.
 */
export function RevokeForm({
  fetcherKey,
  intent,
  id,
  question,
  confirmLabel,
  label,
  icon,
  children,
}: {
  fetcherKey: string;
  intent: "revoke-token" | "revoke-session" | "revoke-share";
  id: string;
  question: string;
  confirmLabel: string;
  /** The button's accessible name (it names the row). */
  label: string;
  icon: IconName;
  children: React.ReactNode;
}) {
  const fetcher = useFetcher<typeof clientAction>({ key: fetcherKey });
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const row = event.currentTarget.closest("li");
    const form = new FormData(event.currentTarget);
    void confirmDelete(submitterOf(event), { message: question, confirmLabel }).then((confirmed) => {
      if (!confirmed) return;
      focusAfterRemoval(row, "button[data-revoke]", () => row?.closest("section")?.querySelector("h2"));
      form.set("confirmed", "1");
      void fetcher.submit(form, { method: "post", action: "/account" });
    });
  };
  return (
    <fetcher.Form method="post" action="/account" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <EnhancedField />
      <button type="submit" className="button button-ghost button-small" aria-label={label} data-revoke>
        <Icon name={icon} />
        {children}
      </button>
    </fetcher.Form>
  );
}
