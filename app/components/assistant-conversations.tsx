import { useRef, useState } from "react";
import { Form, Link } from "react-router";
import type { ListedConversation } from "~/shared/assistant-exchanges";
import { Icon } from "./icon";

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
 * Rename (a small form in a disclosure) and Delete for the open conversation. Delete asks first: without
 * JavaScript through ?delete=1, with it in place (focus on Cancel, Escape cancels, focus back to Delete).
 */
function ConversationActions(props: {
  id: string;
  title: string;
  hydrated: boolean;
  confirmDelete: boolean;
  renameError: string | null;
}) {
  const { id, title, hydrated } = props;
  const [asking, setAsking] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const confirming = asking || props.confirmDelete;
  const cancel = () => {
    setAsking(false);
    requestAnimationFrame(() => deleteButton.current?.focus());
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
      {confirming ? (
        // Where the app's shared confirmation dialog goes once it exists; this asks in place meanwhile.
        <Form
          method="post"
          action="/assistant"
          className="ai-confirm"
          role="alertdialog"
          aria-labelledby={`ai-confirm-${id}`}
          onKeyDown={(event) => {
            if (event.key !== "Escape" || !hydrated) return;
            // Only the question closes, not the drawer around it (which skips a handled Escape).
            event.preventDefault();
            cancel();
          }}
        >
          <p id={`ai-confirm-${id}`} className="ai-confirm-question">
            Delete the conversation “{title}”?
          </p>
          <input type="hidden" name="intent" value="delete_conversation" />
          <input type="hidden" name="conversation_id" value={id} />
          <div className="ai-confirm-actions">
            <button type="submit" className="button button-small button-danger">
              Delete
            </button>
            {hydrated && asking ? (
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the question's safe answer takes focus when it opens
              <button type="button" className="button button-small button-ghost" autoFocus onClick={cancel}>
                Cancel
              </button>
            ) : (
              <Link className="button button-small button-ghost" to={conversationHref(id)}>
                Cancel
              </Link>
            )}
          </div>
        </Form>
      ) : hydrated ? (
        <button
          ref={deleteButton}
          type="button"
          className="button button-small button-ghost"
          onClick={() => setAsking(true)}
        >
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
