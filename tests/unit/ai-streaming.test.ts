import { afterEach, describe, expect, it } from "vitest";
import type { RemoteCallConfig } from "~/ai/config.server";
import { STUDIO_SYSTEM_PROMPT } from "~/ai/chat/chat.server";
import { ProviderError } from "~/ai/errors.server";
import { composeOfflineReply, OfflineAssistant, replyPieces } from "~/ai/chat/offline-assistant.server";
import { OpenAiChat } from "~/ai/chat/openai-compatible.server";
import { eventStreamData } from "~/browser/ai-client";
import { chatChunk, sendJson, sseEvent, startStubServer, type StubServer } from "../support/ai-stub-server";

/** Streamed replies: the OpenAI-compatible stream read piece by piece, and the offline assistant's. */
const FAST: RemoteCallConfig = { timeoutMs: 2000, totalTimeoutMs: 10_000, maxRetries: 1, retryBaseMs: 10 };
const SECRET = "stream-secret-abc";

let stub: StubServer | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

function chat(url: string, call = FAST) {
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
    call,
  );
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of stream) pieces.push(piece);
  return pieces;
}

describe("OpenAI-compatible streamed chat", () => {
  it("asks with stream: true and yields each delta as it comes, up to [DONE]", async () => {
    stub = await startStubServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      // A role-only first chunk, pieces split across writes, a comment, CRLF lines: all as servers send them.
      response.write(sseEvent({ choices: [{ index: 0, delta: { role: "assistant" } }] }));
      response.write(": keep-alive\n\n");
      response.write(sseEvent(chatChunk("  Hello")));
      const split = sseEvent(chatChunk(", wor"));
      response.write(split.slice(0, 20));
      response.write(split.slice(20));
      response.write(`data: ${JSON.stringify(chatChunk("ld!"))}\r\n\r\n`);
      response.write(sseEvent({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
      response.end(sseEvent("[DONE]"));
    });
    expect(await collect(chat(stub.url).stream("Say hello"))).toEqual(["Hello", ", wor", "ld!"]);
    const [sent] = stub.requests;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer k");
    expect(sent.json).toEqual({
      model: "llama3.2",
      messages: [
        { role: "system", content: STUDIO_SYSTEM_PROMPT },
        { role: "user", content: "Say hello" },
      ],
      stream: true,
    });
  });

  it("a server that ignores stream answers one JSON completion: one piece", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 200, { choices: [{ message: { content: " Whole reply." } }] }),
    );
    expect(await collect(chat(stub.url).stream("hi"))).toEqual(["Whole reply."]);
  });

  it("a 500 before the stream is retried, then fails without the provider's body", async () => {
    stub = await startStubServer((_request, response) => sendJson(response, 500, { error: SECRET }));
    const error = await collect(chat(stub.url).stream("hi")).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.failure).toBe("unavailable");
    expect(stub.requests).toHaveLength(2);
    expect(error.message).not.toContain(SECRET);
  });

  it("an error event, a malformed event, or a stream with no content fails after the pieces already given", async () => {
    for (const [events, failure] of [
      [[sseEvent(chatChunk("Part one")), sseEvent({ error: { message: SECRET } })], "bad_response"],
      [[sseEvent(chatChunk("Part one")), `data: {not json ${SECRET}\n\n`], "bad_response"],
      [[sseEvent("[DONE]")], "bad_response"],
    ] as const) {
      stub = await startStubServer((_request, response) => {
        response.writeHead(200, { "Content-Type": "text/event-stream" });
        response.end(events.join(""));
      });
      const pieces: string[] = [];
      const error = await (async () => {
        for await (const piece of chat(stub!.url).stream("hi")) pieces.push(piece);
      })().catch((e) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.failure).toBe(failure);
      expect(error.message).not.toContain(SECRET);
      expect(pieces).toEqual(events.length > 1 ? ["Part one"] : []);
      await stub.close();
      stub = null;
    }
  });

  it("a stream that goes quiet ends as a timeout; one cut off midway as unavailable", async () => {
    stub = await startStubServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write(sseEvent(chatChunk("Thinking")));
      // then nothing, ever
    });
    const quiet = await collect(chat(stub.url, { ...FAST, timeoutMs: 200 }).stream("hi")).catch((e) => e);
    expect(quiet.failure).toBe("timeout");
    await stub.close();

    stub = await startStubServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write(sseEvent(chatChunk("Half")), () => response.destroy());
    });
    const cut = await collect(chat(stub.url).stream("hi")).catch((e) => e);
    expect(cut).toBeInstanceOf(ProviderError);
    expect(cut.failure).toBe("unavailable");
  });

  it("stopping early cancels the provider's stream (the connection closes)", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    stub = await startStubServer((request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write(sseEvent(chatChunk("first")));
      response.on("close", () => closed());
    });
    for await (const piece of chat(stub.url).stream("hi")) {
      expect(piece).toBe("first");
      break;
    }
    await connectionClosed;
  });
});

describe("offline assistant streaming", () => {
  it("yields the same reply as reply(), word by word", async () => {
    const assistant = new OfflineAssistant();
    const context = {
      items: [{ title: "Lighthouse notes", body: "The lamp turns every twelve seconds.", updated_at: "2026-01-01" }],
    };
    const pieces = await collect(assistant.stream("What did I write about the lighthouse?", context));
    const whole = (await assistant.reply("What did I write about the lighthouse?", context)).reply;
    expect(pieces.join("")).toBe(whole);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every((piece) => piece.trim().split(/\s+/).length === 1)).toBe(true);
  });

  it("cuts any reply into pieces that join back exactly", () => {
    for (const text of ["one", "  lead\n\nnew paragraph  ", composeOfflineReply("hi", []), "• a\n• b"]) {
      expect(replyPieces(text).join("")).toBe(text);
    }
  });
});

describe("the browser's event-stream reader", () => {
  it("gives each event's data, whatever the chunking", async () => {
    const text =
      'data: {"delta":"a"}\n\ndata: {"delta":"b\\n"}\r\n\r\n: comment\n\ndata: line1\ndata: line2\n\ndata: [DONE]\n\n';
    for (const size of [1, 3, 7, text.length]) {
      const bytes = new TextEncoder().encode(text);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
          controller.close();
        },
      });
      const seen: string[] = [];
      for await (const data of eventStreamData(body)) seen.push(data);
      expect(seen).toEqual(['{"delta":"a"}', '{"delta":"b\\n"}', "line1\nline2", "[DONE]"]);
    }
  });
});
