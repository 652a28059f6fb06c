import { Form, Link, useSubmit } from "react-router";
import { confirmDelete } from "~/browser/confirm-delete";
import type { ListedConversation } from "~/common/assistant/assistant-exchanges";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";
import { UNTITLED_CONVERSATION } from "~/common/assistant/assistant-labels";

/** Delete's question, with the conversation's title (the app's dialog, or the no-JavaScript panel). */
const DELETE_QUESTION = msg("Delete the conversation “{{title}}”?");

export const conversationHref = (id: string) => `/assistant?c=${encodeURIComponent(id)}`;

/** A conversation's title as the screen shows it: a new one's placeholder title in the screen's language. */
export const shownTitle = (t: (key: string) => string, title: string) =>
  title === UNTITLED_CONVERSATION ? t(UNTITLED_CONVERSATION) : title;

/**
 * The person's conversations beside the chat (a drawer on phones, docs/screens.md#assistant-conversations):
 * links to open them, "New conversation", and for the open one Rename and Delete. Every control is a
 * link or a plain form, so the list works without JavaScript.
 */
export function ConversationList(props: {
  id?: string;
  conversations: ListedConversation[];
  activeId: string | null;
  activeTitle: string | null;
  hydrated: boolean;
  /** Delete's question is open (without JavaScript: ?delete=1). */
  confirmDelete: boolean;
  renameError: string | null;
  onClose?: () => void;
  onOpen?: () => void;
}) {
  const { conversations, activeId } = props;
  const { t } = useT();
  return (
    <nav id={props.id} className="card ai-history" aria-label={t("Conversations")}>
      <div className="ai-history-head">
        <h2 className="ai-history-title">{t("Conversations")}</h2>
        {props.onClose ? (
          <button type="button" className="button button-small button-ghost ai-history-close" onClick={props.onClose}>
            <Icon name="x" />
            <span className="visually-hidden">{t("Close the list")}</span>
          </button>
        ) : null}
      </div>
      <Link to="/assistant" className="button button-primary ai-new-conversation" onClick={props.onOpen}>
        <Icon name="plus" />
        {t("New conversation")}
      </Link>
      {conversations.length === 0 ? (
        <p className="muted">{t("No conversations yet.")}</p>
      ) : (
        <ul className="ai-history-list">
          {conversations.map((conversation) => {
            const active = conversation.id === activeId;
            return (
              <li key={conversation.id} className="ai-history-item" data-active={active || undefined}>
                <Link
                  to={conversationHref(conversation.id)}
                  aria-current={active ? "page" : undefined}
                  className="ai-history-link"
                  onClick={props.onOpen}
                >
                  {shownTitle(t, conversation.title)}
                </Link>
                {active ? (
                  <ConversationActions
                    id={conversation.id}
                    title={props.activeTitle ?? conversation.title}
                    hydrated={props.hydrated}
                    confirmDelete={props.confirmDelete}
                    renameError={props.renameError}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}

/**
 * Rename (a small form in a disclosure) and Delete for the open conversation. Delete asks first
 * (docs/screens.md#dialogs): with JavaScript in the app's dialog, without it on ?delete=1's panel.
 */
function ConversationActions(props: {
  id: string;
  title: string;
  hydrated: boolean;
  confirmDelete: boolean;
  renameError: string | null;
}) {
  const { id, title, hydrated } = props;
  const { t } = useT();
  const submit = useSubmit();
  const fields = { intent: "delete_conversation", conversation_id: id };
  const question = t(DELETE_QUESTION, { title: shownTitle(t, title) });
  const onDelete = async (event: React.MouseEvent<HTMLButtonElement>) => {
    const asked = await confirmDelete(event.currentTarget, { message: question });
    if (asked) await submit({ ...fields, confirmed: "1" }, { method: "post", action: "/assistant" });
  };
  return (
    <div className="ai-history-actions">
      <details className="ai-rename" open={props.renameError ? true : undefined}>
        <summary className="button button-small button-ghost">{t("Rename")}</summary>
        <Form
          method="post"
          action={conversationHref(id)}
          className="ai-rename-form"
          onSubmit={(event) => event.currentTarget.closest("details")?.removeAttribute("open")}
        >
          <input type="hidden" name="intent" value="rename_conversation" />
          <input type="hidden" name="conversation_id" value={id} />
          <label>
            {t("New title")}
            <input name="title" defaultValue={title} maxLength={120} required />
          </label>
          <button type="submit" className="button button-small">
            {t("Save title")}
          </button>
          {props.renameError ? (
            <p className="message message-error" role="alert">
              {t(props.renameError)}
            </p>
          ) : null}
        </Form>
      </details>
      {props.confirmDelete && !hydrated ? (
        <ConfirmPanel
          question={question}
          action="/assistant"
          fields={fields}
          cancelTo={conversationHref(id)}
          confirmLabel={t("Delete")}
        />
      ) : hydrated ? (
        <button type="button" className="button button-small button-ghost" onClick={onDelete}>
          {t("Delete")}
        </button>
      ) : (
        <Link className="button button-small button-ghost" to={`${conversationHref(id)}&delete=1`}>
          {t("Delete")}
        </Link>
      )}
    </div>
  );
}
