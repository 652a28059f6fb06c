import { describe, expect, it } from "vitest";
import { contentListFromMemory } from "~/auth/api-answers-from-memory.server";
import { SECURITY_HEADERS } from "~/lib/security.server";
import { createContent } from "~/models/content.server";
import { contentListAnswer } from "~/models/content-list.server";
import { accessTokenHolder, issueTokenPair, revokeRefreshToken } from "~/models/token.server";
import { newUserId } from "./users";

// The front door's answer from memory for GET /api/content (issue 13): it may only ever send what the
// route would, for the token's own person, at the person's current content version; otherwise null,
// and React Router answers.

const fromMemory = (token: string, url = "/api/content", headers: Record<string, string> = {}) =>
  contentListFromMemory({ url, headers: { authorization: `Bearer ${token}`, ...headers } });

describe("contentListFromMemory", () => {
  it("answers the kept list with the route's headers, and nothing before the route has read it", async () => {
    const userId = await newUserId();
    await createContent(userId, { title: "First", body: "one" });
    const { access_token: token } = await issueTokenPair(userId);
    expect(await fromMemory(token)).toBeNull();

    const read = await contentListAnswer(userId, {});
    const answer = await fromMemory(token);
    expect(answer?.status).toBe(200);
    expect(Buffer.from(answer!.body).toString()).toBe(Buffer.from(read.json).toString());
    expect(answer?.headers).toEqual({
      ...SECURITY_HEADERS,
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "X-Total-Count": "1",
      "Server-Timing": 'list;desc="kept"',
    });
  });

  it("is null once an item changes, until the list is read again", async () => {
    const userId = await newUserId();
    const { access_token: token } = await issueTokenPair(userId);
    await contentListAnswer(userId, {});
    const before = (await accessTokenHolder(token))!.contentVersion;
    expect(await fromMemory(token)).not.toBeNull();
    await createContent(userId, { title: "Second" });
    expect((await accessTokenHolder(token))!.contentVersion).toBeGreaterThan(before);
    expect(await fromMemory(token)).toBeNull();
    await contentListAnswer(userId, {});
    expect(JSON.parse(Buffer.from((await fromMemory(token))!.body).toString()).map((item: { title: string }) => item.title)).toEqual(["Second"]);
  });

  it("keeps queries apart and leaves refused ones to the route", async () => {
    const userId = await newUserId();
    const { access_token: token } = await issueTokenPair(userId);
    for (const title of ["Alpha", "Beta"]) await createContent(userId, { title });
    await contentListAnswer(userId, { limit: 1 });
    expect(await fromMemory(token)).toBeNull();
    expect(await fromMemory(token, "/api/content?limit=2")).toBeNull();
    expect(JSON.parse(Buffer.from((await fromMemory(token, "/api/content?limit=1"))!.body).toString())).toHaveLength(1);
    expect(await fromMemory(token, "/api/content?limit=abc")).toBeNull();
    expect(await fromMemory(token, "/api/content?limit=0")).toBeNull();
  });

  it("is null for a revoked, tampered or other person's token, a cookie beside the token, or no bearer token", async () => {
    const [alice, bob] = await Promise.all([newUserId(), newUserId()]);
    await createContent(alice, { title: "Alice's secret" });
    const alicePair = await issueTokenPair(alice);
    const bobPair = await issueTokenPair(bob);
    await contentListAnswer(alice, {});
    expect(await fromMemory(alicePair.access_token)).not.toBeNull();
    // Bob's token never finds Alice's list: his own is not kept.
    expect(await fromMemory(bobPair.access_token)).toBeNull();
    expect(await fromMemory(alicePair.access_token.slice(0, -2) + "xx")).toBeNull();
    expect(await fromMemory(alicePair.access_token, "/api/content", { cookie: "__session=anything" })).toBeNull();
    expect(await contentListFromMemory({ url: "/api/content", headers: {} })).toBeNull();
    expect(await contentListFromMemory({ url: "/api/content", headers: { authorization: `Basic ${alicePair.access_token}` } })).toBeNull();
    await revokeRefreshToken(alicePair.refresh_token);
    expect(await fromMemory(alicePair.access_token)).toBeNull();
  });
});
