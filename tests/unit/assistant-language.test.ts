import { afterEach, describe, expect, it, vi } from "vitest";
import { composeOfflineReply, NOT_CONFIGURED_REPLY, OfflineAssistant } from "~/ai/chat/offline-assistant.server";
import { aiProviders } from "~/ai/providers.server";
import { streamAssistant as streamFromBrowser, askAssistant as askFromBrowser } from "~/browser/ai-client";
import { TOOL_GUIDE } from "~/common/assistant/tool-guide";
import { createTranslator } from "~/common/i18n/translate";
import { translatorFor } from "~/lib/i18n/catalogues.server";
import { askAssistant, requestedLanguage, streamAssistant } from "~/services/assistant/assistant.server";
import { askOnScreen } from "~/services/assistant/assistant-screen.server";
import { newUserId } from "../support/user-rows";

/**
 * The offline assistant speaks the screen's language (its replies and its tool guide through the
 * catalogue), which the assistant's request names (`language`, checked against the studio's
 * languages; none or another: English, byte for byte as before).
 */
const drawing = TOOL_GUIDE.find((tool) => tool.id === "drawing")!;

/** A German catalogue of the offline assistant's texts, so the test does not hang on the shipped one. */
const german = createTranslator("de", {
  [NOT_CONFIGURED_REPLY]: "Ich bin der Offline-Assistent.",
  "From your content:": "Aus deinen Inhalten:",
  '"{{text}}"': "„{{text}}“",
  "• {{title}}: {{snippet}}": "• {{title}}: {{snippet}}",
  "I found nothing in your content or projects about {{terms}}.": "Nichts zu {{terms}} gefunden.",
  "{{label}} ({{path}}): {{summary}}": "{{label}} ({{path}}): {{summary}}",
  [drawing.label]: "Zeichenblock",
  [drawing.summary]: "zeichne mit der Maus.",
});

const item = (title: string, body: string) => ({ title, body, updated_at: "2025-01-01T00:00:00.000Z" });

async function collect(pieces: AsyncIterable<{ delta: string }>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece.delta;
  return text;
}

describe("the offline assistant in the screen's language", () => {
  it("says its replies and its tool guide in the translator's language", () => {
    expect(composeOfflineReply("What is the capital of France?", [], [], german)).toBe(
      "Ich bin der Offline-Assistent.",
    );
    expect(composeOfflineReply("How do I use the Drawing Pad?", [], [], german)).toBe(
      "Zeichenblock (/drawing): zeichne mit der Maus.",
    );
    // The tool's label in the screen's language finds the tool too.
    expect(composeOfflineReply("Zeichenblock?", [], [], german)).toBe("Zeichenblock (/drawing): zeichne mit der Maus.");
    const items = [item("Brotrezept", "Mehl, Wasser, Salz und bread")];
    expect(composeOfflineReply("What did I write about bread?", items, [], german)).toBe(
      "Aus deinen Inhalten:\n• „Brotrezept“: Mehl, Wasser, Salz und bread",
    );
    // (The question names the library, "find": its guide follows, a paragraph apart.)
    expect(composeOfflineReply("Find my notes about volcanoes and lava", [], [], german).split("\n\n")[0]).toBe(
      "Nichts zu „volcanoes“ und „lava“ gefunden.",
    );
  });

  it("keeps English byte for byte: no translator, English, and no language all say the English texts", async () => {
    for (const question of ["hello", "How do I use the Drawing Pad?", "What is the capital of France?"]) {
      const english = composeOfflineReply(question, []);
      expect(composeOfflineReply(question, [], [], translatorFor("en"))).toBe(english);
      expect((await new OfflineAssistant().reply(question, {})).reply).toBe(english);
      expect((await new OfflineAssistant().reply(question, { language: "en" })).reply).toBe(english);
    }
    expect(composeOfflineReply("What is the capital of France?", [])).toBe(NOT_CONFIGURED_REPLY);
    expect(composeOfflineReply("Find my notes about volcanoes and lava", []).split("\n\n")[0]).toBe(
      'I found nothing in your content or projects about "volcanoes", "lava".',
    );
  });

  it("answers (whole and streamed) with the server's catalogue of the context's language", async () => {
    const assistant = new OfflineAssistant();
    for (const language of ["de", "ja", "ar"] as const) {
      const expected = composeOfflineReply("hello", [], [], translatorFor(language));
      expect((await assistant.reply("hello", { language })).reply).toBe(expected);
      let streamed = "";
      for await (const piece of assistant.stream("hello", { language })) streamed += piece;
      expect(streamed).toBe(expected);
    }
    expect((await assistant.reply("What is the capital of France?", { language: "fr" })).reply).toBe(
      translatorFor("fr").t(NOT_CONFIGURED_REPLY),
    );
  });
});

describe("the assistant's request names the language", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("takes a studio language from the body, else none (English)", () => {
    expect(requestedLanguage({ message: "hi", language: "de" })).toBe("de");
    expect(requestedLanguage({ message: "hi", language: "pt-BR" })).toBe("pt-BR");
    expect(requestedLanguage({ message: "hi" })).toBeUndefined();
    for (const language of ["xx", "DE", "en-XA", 7, null, ["de"]])
      expect(requestedLanguage({ message: "hi", language })).toBeUndefined();
    expect(requestedLanguage(null)).toBeUndefined();
  });

  it("the services answer in it (both doors), English without it", async () => {
    expect(aiProviders().chat.offline).toBe(true);
    const userId = await newUserId();
    const inGerman = composeOfflineReply("hello", [], [], translatorFor("de"));
    expect((await askAssistant(userId, "hello", undefined, null, "de")).reply).toBe(inGerman);
    expect((await askAssistant(userId, "hello")).reply).toBe(composeOfflineReply("hello", []));
    expect(await collect((await streamAssistant(userId, "hello", undefined, null, "de")).pieces)).toBe(inGerman);
    expect(await collect((await streamAssistant(userId, "hello")).pieces)).toBe(composeOfflineReply("hello", []));
    // The screen's form post (JavaScript off): in the screen's language.
    const screen = await askOnScreen(
      userId,
      { question: "hello", voiceId: "", conversationId: null, autoSpeak: false },
      "Something went wrong.",
      new AbortController().signal,
      translatorFor("de"),
    );
    expect(screen.result.ok && screen.result.conversation.exchanges[0].reply).toBe(inGerman);
  });

  it("the widget sends the page's language with the question (none: English, as an API caller)", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)));
        if (url === "/api/assistant/message") return Response.json({ reply: "Hallo", provider: "offline-assistant" });
        return new Response('data: {"delta":"Hallo"}\n\ndata: [DONE]\n\n', {
          headers: { "Content-Type": "text/event-stream" },
        });
      }),
    );
    await streamFromBrowser("hi", () => {}, undefined, "c1", "de");
    await streamFromBrowser("hi", () => {});
    await askFromBrowser("hi", "ja");
    await askFromBrowser("hi");
    expect(bodies).toEqual([
      { message: "hi", conversation_id: "c1", language: "de" },
      { message: "hi" },
      { message: "hi", language: "ja" },
      { message: "hi" },
    ]);
  });
});
