import { useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import type { VoiceOption } from "~/common/assistant/voice-options";
import type {
  AssistantActionData,
  ListedConversation,
  ShownConversation,
} from "~/common/assistant/assistant-exchanges";
import { AssistantChat, type ChatStart } from "./assistant-chat";
import { ConversationList, conversationHref, shownTitle } from "./assistant-conversations";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { useHydrated } from "~/components/ui/use-hydrated";
import { CONVERSATION_NOT_FOUND, UNTITLED_CONVERSATION } from "~/common/assistant/assistant-labels";
import { msg } from "~/common/i18n/translate";

/** docs/screens.md#error-messages: the assistant's failure text. */
export const SOMETHING_WENT_WRONG = msg("Something went wrong.");

export interface AssistantScreenData {
  messageMax: number;
  voices: VoiceOption[];
  conversations: ListedConversation[];
  conversation: ShownConversation | null;
  missing: boolean;
  confirmDelete: boolean;
}

/**
 * The assistant as a chat (docs/screens.md#assistant-conversations): the person's conversations beside
 * the open one (a drawer opened by a button on phones; without JavaScript the list stands above the
 * chat), and the chat itself, which starts afresh when another conversation is opened.
 */
export function AssistantScreen({
  loaderData,
  actionData,
}: {
  loaderData: AssistantScreenData;
  actionData: AssistantActionData | null;
}) {
  const { t } = useT();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const posted = actionData && !("intent" in actionData) ? actionData : null;
  const renameError = actionData && "intent" in actionData ? actionData.error : null;
  const shown = posted?.ok ? posted.conversation : loaderData.conversation;
  const shownId = shown?.id ?? null;

  // The chat starts afresh (its key) when another conversation is opened, not when the one it just
  // made arrives from the server under its new address.
  const [chat, setChat] = useState({ shown: shownId, active: shownId, key: 0 });
  const [drawerOpen, setDrawerOpen] = useState(false);
  if (chat.shown !== shownId) {
    const same = shownId !== null && shownId === chat.active;
    setChat({ shown: shownId, active: shownId, key: same ? chat.key : chat.key + 1 });
    // Another conversation opened (or the open one deleted): the drawer has done its job.
    if (!same) setDrawerOpen(false);
  }
  const activeId = chat.active;
  const activeTitle = shownId === activeId ? (shown?.title ?? null) : null;

  const toggle = useRef<HTMLButtonElement>(null);
  const closeDrawer = () => {
    setDrawerOpen(false);
    toggle.current?.focus();
  };
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      // An Escape inside the app's dialog (a delete's question) closes only the dialog.
      const inDialog = event.target instanceof Element && event.target.closest("dialog");
      if (event.key === "Escape" && !event.defaultPrevented && !inDialog) setDrawerOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.querySelector<HTMLElement>("#ai-history .ai-new-conversation")?.focus();
    return () => document.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  const start: ChatStart = {
    exchanges: shown?.exchanges ?? [],
    speechError: posted?.ok ? posted.speechError : null,
    error: posted && !posted.ok ? posted.error : loaderData.missing ? CONVERSATION_NOT_FOUND : null,
    question: posted && !posted.ok ? posted.question : "",
    voiceId: posted?.voiceId ?? "",
  };

  return (
    <div className="assistant-layout" data-drawer={hydrated || undefined} data-drawer-open={drawerOpen || undefined}>
      {hydrated ? (
        <div className="ai-history-bar">
          <button
            ref={toggle}
            type="button"
            className="button ai-history-toggle"
            aria-expanded={drawerOpen}
            aria-controls="ai-history"
            onClick={() => setDrawerOpen((open) => !open)}
          >
            <Icon name="menu" />
            {t("Conversations")}
          </button>
          <p className="ai-chat-title" data-testid="conversation-title">
            {shownTitle(t, activeTitle ?? UNTITLED_CONVERSATION)}
          </p>
        </div>
      ) : null}
      {drawerOpen ? <div className="ai-history-backdrop" aria-hidden="true" onClick={closeDrawer} /> : null}
      <ConversationList
        id="ai-history"
        conversations={loaderData.conversations}
        activeId={activeId}
        activeTitle={activeTitle}
        hydrated={hydrated}
        confirmDelete={loaderData.confirmDelete}
        renameError={renameError}
        onClose={hydrated ? closeDrawer : undefined}
        onOpen={hydrated ? () => setDrawerOpen(false) : undefined}
      />
      <AssistantChat
        key={chat.key}
        start={start}
        conversationId={activeId}
        onStarted={(id) => {
          setChat((current) => ({ ...current, active: id }));
          void navigate(conversationHref(id), { replace: true, preventScrollReset: true });
        }}
        onAnswered={() => void revalidator.revalidate()}
        hydrated={hydrated}
        messageMax={loaderData.messageMax}
        serverVoices={loaderData.voices}
        failureText={SOMETHING_WENT_WRONG}
      />
    </div>
  );
}
