import { afterEach, describe, expect, it } from "vitest";
import type { RemoteCallConfig } from "~/ai/config.server";
import { STUDIO_SYSTEM_PROMPT, studioSystemPrompt } from "~/ai/chat/chat.server";
import { OpenAiChat } from "~/ai/chat/openai-compatible.server";
import { chatChunk, sendJson, sseEvent, startStubServer, type StubServer } from "../support/ai-stub-server";

/**
 * An OpenAI-compatible model is asked, in its system prompt, to answer in the person's language (the
 * screen's, by its English name) unless the question is written in another one. English, or no
 * language (an API caller), is the studio's prompt as before.
 */
const FAST: RemoteCallConfig = { timeoutMs: 2000, totalTimeoutMs: 10_000, maxRetries: 1, retryBaseMs: 10 };

let stub: StubServer | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

function chat(url: string) {
  return new OpenAiChat(
    {
      baseUrl: `${url}/v1`,
      apiKey: "k",
      chatModel: "llama3.2",
      speechModel: null,
      speechVoices: [],
      imageModel: null,
      imageSize: "1024x1024",
    },
    FAST,
  );
}

describe("the model's system prompt names the person's language", () => {
  it("asks for the language by its English name, unless the question is in another language", () => {
    const names = { es: "Spanish", de: "German", fr: "French", "pt-BR": "Brazilian Portuguese", ja: "Japanese" };
    for (const [tag, name] of Object.entries({ ...names, "zh-CN": "Simplified Chinese", ar: "Arabic" })) {
      const prompt = studioSystemPrompt(tag);
      expect(prompt.startsWith(STUDIO_SYSTEM_PROMPT)).toBe(true);
      expect(prompt).toContain(`answer in ${name}`);
      expect(prompt).toContain("unless the question is written in another language");
    }
    // English, none, and what the studio does not speak: the studio's prompt unchanged.
    for (const tag of ["en", undefined, "en-XA", "xx"]) expect(studioSystemPrompt(tag)).toBe(STUDIO_SYSTEM_PROMPT);
  });

  it("sends it with the question, whole and streamed", async () => {
    stub = await startStubServer((request, response) => {
      const body = request.json as { stream?: boolean };
      if (!body.stream) return sendJson(response, 200, { choices: [{ message: { content: "Hallo." } }] });
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write(sseEvent(chatChunk("Hallo.")));
      response.end(sseEvent("[DONE]"));
    });
    const model = chat(stub.url);
    expect((await model.reply("Wie spät ist es?", { language: "de" })).reply).toBe("Hallo.");
    for await (const piece of model.stream("Wie spät ist es?", { language: "de" })) expect(piece).toBe("Hallo.");
    await model.reply("What time is it?");
    const prompts = stub.requests.map((request) => (request.json as { messages: { content: string }[] }).messages);
    expect(prompts[0]).toEqual([
      { role: "system", content: studioSystemPrompt("de") },
      { role: "user", content: "Wie spät ist es?" },
    ]);
    expect(prompts[0][0].content).toContain("German");
    expect(prompts[1]).toEqual(prompts[0]);
    expect(prompts[2][0]).toEqual({ role: "system", content: STUDIO_SYSTEM_PROMPT });
  });
});
