import { OFFLINE_ASSISTANT_ID } from "~/common/assistant/assistant-labels";
import type { ChatContext, ChatProvider, ChatReply, Searchable, SearchableProject } from "./chat.server";
import { TOOL_GUIDE, type ToolGuideEntry } from "~/common/assistant/tool-guide";
import { DEFAULT_LANGUAGE } from "~/common/i18n/languages";
import { createTranslator, msg, type Translator } from "~/common/i18n/translate";
import { translatorFor } from "~/lib/i18n/catalogues.server";

/**
 * The assistant that works with no model at all. It does two honest things: it searches the
 * person's own content items and projects for the words of the question, and it explains the studio's tools from
 * a built-in guide. For anything else it says plainly that no model provider is configured and how
 * to configure one. It never pretends to be a language model. It says its replies in the screen's
 * language (ChatContext.language, through the catalogue); English replies are its English texts.
 */

const SHOWN_MATCHES = 3;
const SNIPPET_RADIUS = 70;

export const NOT_CONFIGURED_REPLY = msg(
  "I'm the offline assistant: no AI model provider is configured, so I can't answer general questions. I can search your own content and explain how each tool of the studio works. To get full answers, set AI_CHAT_BASE_URL or AI_BASE_URL (any OpenAI-compatible server: OpenAI, Ollama, llama.cpp or vLLM), AI_CHAT_MODEL and, when the server needs one, AI_CHAT_API_KEY or AI_API_KEY, then restart the studio.",
);

/** The offline assistant's other texts (catalogue keys; English is the reply as it always was). */
const GREETING_REPLY = msg(
  `Hi! I'm the offline assistant. I can search your content and explain the studio's tools: {{tools}}. Ask me, for example, "How do I use the Drawing Pad?" or "What did I write about ...?"`,
);
const FROM_CONTENT = msg("From your content:");
const FROM_PROJECTS = msg("From your projects:");
const QUOTED = msg('"{{text}}"');
const ITEM_LINE = msg("• {{title}}: {{snippet}}");
const PROJECT_LINE = msg("• Project {{title}}: {{snippet}}");
const PROJECT_LINE_TITLE = msg("• Project {{title}}");
const NOTHING_FOUND = msg("I found nothing in your content or projects about {{terms}}.");
const TOOL_LINE = msg("{{label}} ({{path}}): {{summary}}");

/** The replies' English: the texts as they are. */
const ENGLISH = createTranslator(DEFAULT_LANGUAGE, {});

/** A list in the language: English joins with commas as it always did; others say it their way ("A, B und C"). */
function listOf(language: string, parts: string[]): string {
  if (language === DEFAULT_LANGUAGE || language === "en-XA") return parts.join(", ");
  return new Intl.ListFormat(language, { type: "conjunction" }).format(parts);
}

const STOP_WORDS = new Set(
  (
    "a an and are as at be but by can could did do does doing for from had has have how i if in into is it its " +
    "me my mine of on or our please show tell that the their them then there these this those to was we were what " +
    "when where which who why will with would you your about any all find search look up get give some something " +
    "thing things use using used want need know let lets make made there here hello hi hey help thanks thank " +
    "write wrote written writing say said note notes content item items anything everything"
  ).split(" "),
);

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|yo)\b/i;
const HELP = /\b(help|what can you do|who are you|what are you|which tools|what tools|list (the )?tools)\b/i;
const HOW_TO = /\b(how|where|what does|what is|can i|use|open|start|find the)\b/i;
const ABOUT_CONTENT =
  /\b(my (notes?|content|items?|writing|texts?|posts?|projects?)|did i write|i wrote|search|find)\b/i;

export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).map((word) => word.replace(/\p{M}/gu, ""));
}

/** The words of a question worth searching for. */
export function searchTerms(message: string): string[] {
  return [...new Set(words(message).filter((word) => word.length >= 3 && !STOP_WORDS.has(word)))];
}

function stem(word: string): string {
  return word.length > 4 ? word.replace(/(ing|ed|es|s)$/, "") : word;
}

export interface SearchMatch<T extends Searchable> {
  item: T;
  score: number;
  snippet: string;
}

function snippetOf(item: Searchable, terms: string[]): string {
  const body = item.body.replace(/\s+/g, " ").trim();
  if (!body) return "";
  const lower = body.toLowerCase();
  const positions = terms.map((term) => lower.indexOf(term)).filter((at) => at >= 0);
  const at = positions.length ? Math.min(...positions) : 0;
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(body.length, at + SNIPPET_RADIUS);
  return `${start > 0 ? "…" : ""}${body.slice(start, end).trim()}${end < body.length ? "…" : ""}`;
}

/** Scores items by the question's terms: a title hit counts three times a body hit. */
export function rankContent<T extends Searchable>(items: T[], terms: string[]): SearchMatch<T>[] {
  if (terms.length === 0) return [];
  const matches: SearchMatch<T>[] = [];
  for (const item of items) {
    const title = item.title.toLowerCase();
    const body = item.body.toLowerCase();
    let score = 0;
    for (const term of terms) {
      if (title.includes(term)) score += 3;
      if (body.includes(term)) score += 1;
    }
    if (score > 0) matches.push({ item, score, snippet: snippetOf(item, terms) });
  }
  return matches.sort((a, b) => b.score - a.score || (a.item.updated_at < b.item.updated_at ? 1 : -1));
}

/** Tools the question is about, best first: keyword stems, and the tool's own label (in English or the screen's language). */
export function matchTools(message: string, { t }: Translator = ENGLISH): ToolGuideEntry[] {
  const asked = new Set(words(message).map(stem));
  const lower = message.toLowerCase();
  const scored = TOOL_GUIDE.map((tool) => {
    let score = 0;
    if (lower.includes(tool.label.toLowerCase()) || lower.includes(t(tool.label).toLowerCase())) score += 5;
    for (const keyword of tool.keywords) {
      if (keyword.includes(" ") ? lower.includes(keyword) : asked.has(stem(keyword))) score += 1;
    }
    return { tool, score };
  }).filter(({ score }) => score > 0);
  scored.sort((a, b) => b.score - a.score);
  if (scored.length === 0) return [];
  // Only the tools as relevant as the best one (a question about "video" names two tools).
  return scored
    .filter(({ score }) => score >= scored[0].score - 1 && score > 0)
    .slice(0, 2)
    .map(({ tool }) => tool);
}

function describeTool(tool: ToolGuideEntry, { t }: Translator): string {
  return t(TOOL_LINE, { label: t(tool.label), path: tool.path, summary: t(tool.summary) });
}

/**
 * The offline reply to `message`, in the translator's language (English by default): the person's
 * matching items and projects, the tools asked about, or what the offline assistant can do.
 */
export function composeOfflineReply(
  message: string,
  items: Searchable[],
  projects: SearchableProject[] = [],
  translator: Translator = ENGLISH,
): string {
  const { t, language } = translator;
  const parts: string[] = [];
  const trimmed = message.trim();
  const quoted = (text: string) => t(QUOTED, { text });

  if (GREETING.test(trimmed) || HELP.test(trimmed)) {
    parts.push(
      t(GREETING_REPLY, {
        tools: listOf(
          language,
          TOOL_GUIDE.map((tool) => t(tool.label)),
        ),
      }),
    );
  }

  const terms = searchTerms(trimmed);
  const matches = rankContent(items, terms).slice(0, SHOWN_MATCHES);
  const projectMatches = rankContent(projects, terms).slice(0, SHOWN_MATCHES);
  const tools = matchTools(trimmed, translator);
  const aboutContent = ABOUT_CONTENT.test(trimmed);
  const howTo = HOW_TO.test(trimmed);

  if (matches.length > 0) {
    const lines = matches.map(({ item, snippet }) =>
      snippet ? t(ITEM_LINE, { title: quoted(item.title), snippet }) : `• ${quoted(item.title)}`,
    );
    parts.push(`${t(FROM_CONTENT)}\n${lines.join("\n")}`);
  }
  if (projectMatches.length > 0) {
    const lines = projectMatches.map(
      // Named by their titles: the reply is read (and pasted into scripts), so no raw /project/{id} paths.
      ({ item, snippet }) =>
        snippet
          ? t(PROJECT_LINE, { title: quoted(item.title), snippet })
          : t(PROJECT_LINE_TITLE, { title: quoted(item.title) }),
    );
    parts.push(`${t(FROM_PROJECTS)}\n${lines.join("\n")}`);
  }
  const found = matches.length + projectMatches.length > 0;
  if (!found && aboutContent && terms.length > 0) {
    parts.push(t(NOTHING_FOUND, { terms: listOf(language, terms.map(quoted)) }));
  }

  // A tool explanation when the question is about one (and not already answered from the person's own work alone).
  if (tools.length > 0 && (howTo || !found)) {
    parts.push(tools.map((tool) => describeTool(tool, translator)).join("\n"));
  }

  if (parts.length === 0) return t(NOT_CONFIGURED_REPLY);
  return parts.join("\n\n");
}

/** The translator for the reply's language: the screen's (ChatContext.language), else English. */
function replyTranslator(context: ChatContext): Translator {
  return context.language ? translatorFor(context.language) : ENGLISH;
}

export class OfflineAssistant implements ChatProvider {
  readonly id = OFFLINE_ASSISTANT_ID;
  readonly offline = true;
  /** It answers from the person's own content and projects: the caller passes them in. */
  readonly searchesPersonalContent = true;

  async reply(message: string, context: ChatContext = {}): Promise<ChatReply> {
    const reply = composeOfflineReply(message, context.items ?? [], context.projects ?? [], replyTranslator(context));
    return { reply, provider: this.id };
  }

  /**
   * The same reply word by word, a few milliseconds apart (at most about a second in all), so the
   * screen shows it growing as it does with a model.
   */
  async *stream(message: string, context: ChatContext = {}, signal?: AbortSignal): AsyncGenerator<string> {
    const reply = composeOfflineReply(message, context.items ?? [], context.projects ?? [], replyTranslator(context));
    const pieces = replyPieces(reply);
    const pause = Math.min(OFFLINE_PIECE_PAUSE_MS, OFFLINE_STREAM_MS / pieces.length);
    for (const [index, piece] of pieces.entries()) {
      if (signal?.aborted) return;
      if (index > 0 && pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
      yield piece;
    }
  }
}

const OFFLINE_PIECE_PAUSE_MS = 12;
const OFFLINE_STREAM_MS = 1200;

/** A reply cut into words, each with the spaces and line breaks after it: joined, the reply itself. */
export function replyPieces(reply: string): string[] {
  return reply.match(/^\s+|\S+\s*/g) ?? [reply];
}
