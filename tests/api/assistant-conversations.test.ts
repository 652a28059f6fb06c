import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { zipFiles } from "../support/zip";
import { api, baseUrl, newUser } from "../support/api";

/**
 * The assistant's conversations (docs/api.md#assistant-conversations, decision 0064): the five calls,
 * each person's own (another person's id is 404), validation (400 {detail}), the assistant calls'
 * conversation_id (answers as before, and the exchange is kept), the storage quota and the account export.
 */
type User = Awaited<ReturnType<typeof newUser>>;
const base = "/api/assistant/conversations";

let alice: User;
let bob: User;
beforeAll(async () => {
  [alice, bob] = await Promise.all([newUser("chat-a"), newUser("chat-b")]);
});

const textBytes = async (user: User, server?: string) =>
  (await api("/api/library/usage", { token: user.token, server })).body.text_bytes as number;

/** The stream's events, as text lines after "data: ". */
const eventsOf = (text: string) =>
  text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length));

describe("the conversations API", () => {
  it("creates, lists newest updated first with paging, reads, renames and deletes (204)", async () => {
    const first = await api(base, { token: alice.token, json: {} });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ title: "New conversation", messages: [] });
    expect(first.headers.get("location")).toBe(`${base}/${first.body.id}`);
    const second = await api(base, { token: alice.token, json: { title: "  Trip ideas " } });
    expect(second.body.title).toBe("Trip ideas");

    const list = await api(base, { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([second.body.id, first.body.id]);
    expect(list.headers.get("x-total-count")).toBe("2");
    const page = await api(`${base}?limit=1`, { token: alice.token });
    expect(page.body.map((c: { id: string }) => c.id)).toEqual([second.body.id]);
    expect(page.headers.get("link")).toContain("offset=1");
    expect((await api(`${base}?limit=0`, { token: alice.token })).status).toBe(400);

    const renamed = await api(`${base}/${first.body.id}`, {
      token: alice.token,
      method: "PATCH",
      json: { title: "Renamed" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: first.body.id, title: "Renamed" });
    // Renaming moves it to the top.
    expect((await api(base, { token: alice.token })).body[0].id).toBe(first.body.id);
    const read = await api(`${base}/${first.body.id}`, { token: alice.token });
    expect(read.body).toMatchObject({ id: first.body.id, title: "Renamed", messages: [] });

    const deleted = await api(`${base}/${second.body.id}`, { token: alice.token, method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await api(`${base}/${second.body.id}`, { token: alice.token })).status).toBe(404);
    expect((await api(`${base}/${second.body.id}`, { token: alice.token, method: "DELETE" })).status).toBe(404);
  });

  it("refuses an empty or too long title, or one that is not text, with 400 {detail}", async () => {
    const made = await api(base, { token: alice.token, json: { title: "Keep me" } });
    for (const title of ["", "   ", "x".repeat(121), 42, null]) {
      const answer = await api(`${base}/${made.body.id}`, { token: alice.token, method: "PATCH", json: { title } });
      expect(answer.status, String(title)).toBe(400);
      expect(typeof answer.body.detail).toBe("string");
    }
    expect((await api(base, { token: alice.token, json: { title: "y".repeat(121) } })).status).toBe(400);
    expect((await api(`${base}/${made.body.id}`, { token: alice.token })).body.title).toBe("Keep me");
  });

  it("is its owner's: another person's id is 404 for every call, and their list leaves it out", async () => {
    const mine = await api(base, { token: alice.token, json: { title: "Private" } });
    const id = mine.body.id;
    expect((await api(`${base}/${id}`, { token: bob.token })).status).toBe(404);
    expect((await api(`${base}/${id}`, { token: bob.token })).body).toEqual({ detail: "Conversation not found" });
    expect((await api(`${base}/${id}`, { token: bob.token, method: "PATCH", json: { title: "Mine" } })).status).toBe(
      404,
    );
    expect((await api(`${base}/${id}`, { token: bob.token, method: "DELETE" })).status).toBe(404);
    const theirs = await api("/api/assistant/message", {
      token: bob.token,
      json: { message: "Hello?", conversation_id: id },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: "Conversation not found" });
    expect((await api(base, { token: bob.token })).body.map((c: { id: string }) => c.id)).not.toContain(id);
    expect((await api(`${base}/${id}`, { token: alice.token })).body.title).toBe("Private");
    // Nobody signed in: 401.
    expect((await api(base)).status).toBe(401);
    expect((await api(`${base}/${id}`)).status).toBe(401);
  });
});

describe("conversation_id on the assistant calls", () => {
  it("answers as before and keeps the question and the reply; the first question names the conversation", async () => {
    const made = await api(base, { token: alice.token, json: {} });
    const id = made.body.id;
    const plain = await api("/api/assistant/message", { token: alice.token, json: { message: "How do I draw?" } });
    const kept = await api("/api/assistant/message", {
      token: alice.token,
      json: { message: "How do I draw?", conversation_id: id },
    });
    expect(kept.status).toBe(200);
    expect(Object.keys(kept.body).sort()).toEqual(["provider", "reply"]);
    expect(kept.body).toEqual(plain.body);

    const streamed = await fetch(`${baseUrl()}/api/assistant/stream`, {
      method: "POST",
      headers: { Authorization: `Bearer ${alice.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "How do I record a voice memo?", conversation_id: id }),
    });
    expect(streamed.status).toBe(200);
    const events = eventsOf(await streamed.text());
    expect(events.at(-1)).toBe("[DONE]");
    const streamedReply = events
      .slice(0, -1)
      .map((event) => JSON.parse(event).delta)
      .join("");

    const conversation = (await api(`${base}/${id}`, { token: alice.token })).body;
    expect(conversation.title).toBe("How do I draw?");
    expect(conversation.messages.map((m: { role: string; text: string }) => [m.role, m.text])).toEqual([
      ["user", "How do I draw?"],
      ["assistant", kept.body.reply],
      ["user", "How do I record a voice memo?"],
      ["assistant", streamedReply],
    ]);
    expect(conversation.messages[1].provider).toBe(kept.body.provider);
  });

  it("an unknown conversation is 404 with detail, one that is not text 400; nothing is asked or kept", async () => {
    for (const path of ["/api/assistant/message", "/api/assistant/stream"]) {
      const unknown = await api(path, { token: alice.token, json: { message: "Hi", conversation_id: "nope" } });
      expect(unknown.status, path).toBe(404);
      expect(unknown.body, path).toEqual({ detail: "Conversation not found" });
      for (const conversation_id of [12, true, { id: "x" }, ""]) {
        const bad = await api(path, { token: alice.token, json: { message: "Hi", conversation_id } });
        expect(bad.status, `${path} ${JSON.stringify(conversation_id)}`).toBe(400);
        expect(typeof bad.body.detail).toBe("string");
      }
    }
    // Without it, or null: as before.
    for (const json of [{ message: "Hi" }, { message: "Hi", conversation_id: null }])
      expect((await api("/api/assistant/message", { token: alice.token, json })).status).toBe(200);
  });
});

describe("conversations in the account", () => {
  it("count toward storage: the text's bytes are used, and given back when deleted", async () => {
    const carol = await newUser("chat-quota");
    expect(await textBytes(carol)).toBe(0);
    const made = await api(base, { token: carol.token, json: { title: "Grüße" } });
    expect(await textBytes(carol)).toBe(Buffer.byteLength("Grüße"));
    const asked = await api("/api/assistant/message", {
      token: carol.token,
      json: { message: "How do I draw?", conversation_id: made.body.id },
    });
    expect(await textBytes(carol)).toBe(
      Buffer.byteLength("Grüße") + Buffer.byteLength("How do I draw?") + Buffer.byteLength(asked.body.reply),
    );
    await api(`${base}/${made.body.id}`, { token: carol.token, method: "DELETE" });
    expect(await textBytes(carol)).toBe(0);
  });

  it("are in the account export: one JSON per conversation with its messages, listed in the manifest", async () => {
    const dave = await newUser("chat-export");
    const made = await api(base, { token: dave.token, json: {} });
    await api("/api/assistant/message", {
      token: dave.token,
      json: { message: "What is AI x AI?", conversation_id: made.body.id },
    });
    const response = await fetch(`${baseUrl()}/api/account/export`, {
      headers: { Authorization: `Bearer ${dave.token}` },
    });
    expect(response.status).toBe(200);
    const files = zipFiles(Buffer.from(await response.arrayBuffer()));
    const manifest = JSON.parse(files.get("manifest.json")!.data.toString("utf8"));
    expect(manifest.assistant_conversations).toHaveLength(1);
    const entry = manifest.assistant_conversations[0];
    expect(entry).toMatchObject({ id: made.body.id, title: "What is AI x AI?" });
    const document = JSON.parse(files.get(entry.path)!.data.toString("utf8"));
    expect(entry.path).toMatch(/^assistant\/.+\.json$/);
    expect(document.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(document.messages[0].text).toBe("What is AI x AI?");
    // Nobody else's conversation is in it.
    const other = await fetch(`${baseUrl()}/api/account/export`, { headers: { Authorization: `Bearer ${bob.token}` } });
    const otherFiles = zipFiles(Buffer.from(await other.arrayBuffer()));
    expect([...otherFiles.keys()].some((name) => name.startsWith("assistant/"))).toBe(false);
  });
});

describe("conversations past the storage quota", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // About 10 KB each.
    server = await startTestServer({ USER_STORAGE_QUOTA_MB: "0.01" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a question that would pass the quota is 413 and nothing is kept", async () => {
    const erin = await newUser("chat-full", server.url);
    const made = await api(base, { token: erin.token, json: {}, server: server.url });
    const id = made.body.id;
    let refused = null;
    for (let i = 0; i < 6 && !refused; i++) {
      const answer = await api("/api/assistant/message", {
        token: erin.token,
        server: server.url,
        json: { message: `${i} ${"long question ".repeat(280)}`, conversation_id: id },
      });
      if (answer.status !== 200) refused = answer;
    }
    expect(refused?.status).toBe(413);
    expect(refused?.body.detail).toMatch(/^Not enough storage left/);
    const usage = (await api("/api/library/usage", { token: erin.token, server: server.url })).body;
    expect(usage.text_bytes).toBeLessThanOrEqual(usage.quota_bytes);
    const kept = (await api(`${base}/${id}`, { token: erin.token, server: server.url })).body;
    // Whole exchanges only: the refused question was not kept without its reply.
    expect(kept.messages.map((m: { role: string }) => m.role)).toEqual(
      kept.messages.map((_: unknown, index: number) => (index % 2 ? "assistant" : "user")),
    );
  });
});
