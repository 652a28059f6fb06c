import { Form, Link, useSubmit } from "react-router";
import { confirmDelete } from "~/browser/confirm-delete";
import type { ListedConversation } from "~/common/assistant/assistant-exchanges";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { Icon } from "~/components/ui/icon";

export const conversationHref = (id: string) => `/assistant?c=${encodeURIComponent(id)}`;

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
  return (
    <nav id={props.id} className="card ai-history" aria-label="Conversations">
      <div className="ai-history-head">
        <h2 className="ai-history-title">Conversations</h2>
        {props.onClose ? (
          <button type="button" className="button button-small button-ghost ai-history-close" onClick={props.onClose}>
            <Icon name="x" />
            <span className="visually-hidden">Close the list</span>
          </button>
        ) : null}
      </div>
      <Link to="/assistant" className="button button-primary ai-new-conversation" onClick={props.onOpen}>
        <Icon name="plus" />
        New conversation
      </Link>
      {conversations.length === 0 ? (
        <p className="muted">No conversations yet.</p>
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
                  {conversation.title}
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
  const submit = useSubmit();
  const fields = { intent: "delete_conversation", conversation_id: id };
  const onDelete = async (event: React.MouseEvent<HTMLButtonElement>) => {
    const asked = await confirmDelete(event.currentTarget, { message: `Delete the conversation “${title}”?` });
    if (asked) await submit({ ...fields, confirmed: "1" }, { method: "post", action: "/assistant" });
  };
  return (
    <div className="ai-history-actions">
      <details className="ai-rename" open={props.renameError ? true : undefined}>
        <summary className="button button-small button-ghost">Rename</summary>
        <Form
          method="post"
          action={conversationHref(id)}
          className="ai-rename-form"
          onSubmit={(event) => event.currentTarget.closest("details")?.removeAttribute("open")}
        >
          <input type="hidden" name="intent" value="rename_conversation" />
          <input type="hidden" name="conversation_id" value={id} />
          <label>
            New title
            <input name="title" defaultValue={title} maxLength={120} required />
          </label>
          <button type="submit" className="button button-small">
            Save title
          </button>
          {props.renameError ? (
            <p className="message message-error" role="alert">
              {props.renameError}
            </p>
          ) : null}
        </Form>
      </details>
      {props.confirmDelete && !hydrated ? (
        <ConfirmPanel
          question={`Delete the conversation “${title}”?`}
          action="/assistant"
          fields={fields}
          cancelTo={conversationHref(id)}
        />
      ) : hydrated ? (
        <button type="button" className="button button-small button-ghost" onClick={onDelete}>
          Delete
        </button>
      ) : (
        <Link className="button button-small button-ghost" to={`${conversationHref(id)}&delete=1`}>
          Delete
        </Link>
      )}
    </div>
  );
}
