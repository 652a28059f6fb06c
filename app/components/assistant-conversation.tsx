/** One question of this visit and the reply it got. */
export interface Exchange {
  question: string;
  reply: string;
  provider: string;
}

/**
 * The conversation of this visit, oldest first: each question above its reply and who answered it.
 * The newest reply is the one that grows while it streams (data-testid assistant-reply).
 */
export function AssistantConversation({ exchanges, answeredBy }: { exchanges: Exchange[]; answeredBy: (provider: string) => string }) {
  return (
    <ol className="ai-conversation" aria-label="Conversation">
      {exchanges.map((exchange, index) => (
        <li key={index} className="ai-exchange">
          <p className="ai-question">
            <span className="visually-hidden">You asked: </span>
            {exchange.question}
          </p>
          <p className="ai-reply-text" data-testid={index === exchanges.length - 1 ? "assistant-reply" : undefined}>
            {exchange.reply}
          </p>
          <p className="muted ai-reply-meta">{answeredBy(exchange.provider)}</p>
        </li>
      ))}
    </ol>
  );
}
