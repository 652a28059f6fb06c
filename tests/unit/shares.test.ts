import { Readable } from "node:stream";
import { expect, it } from "vitest";
import { db } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";
import { isDomainError } from "~/lib/domain-error";
import { sha256 } from "~/lib/db/ids.server";
import { createContent, deleteContent } from "~/models/content/content.server";
import { storeMedia } from "~/models/media/media-commit.server";
import { deleteLibraryFile } from "~/models/media/library-files.server";
import { deletePersonRows, disablePerson, enablePerson } from "~/models/operators/operator.server";
import { createProject, deleteProject } from "~/models/projects/project.server";
import {
  createShare,
  listShares,
  listSharesOfTarget,
  revokeAllShares,
  revokeShare,
  type ShareJson,
} from "~/models/sharing/share.server";
import { openShareForFile, openShareForView } from "~/models/sharing/share-open.server";
import { describeOnEachEngine } from "../support/engines";
import { mp3Frames, PNG_BYTES } from "../support/media";
import { newUserId } from "../support/user-rows";

/**
 * Share links on both engines (docs/decisions/0069): made only for the person's own targets, listed
 * newest first, revoked for good, found by the token's hash, counted exactly once per view even under
 * concurrency, and over ("gone") when revoked, expired, out of views, without a target or with a
 * disabled owner.
 */
const ORIGIN = "https://studio.example";
const tokenOf = (share: ShareJson) => share.url.slice(`${ORIGIN}/s/`.length);

async function rejection(promise: Promise<unknown>): Promise<{ status: number; detail: string }> {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error)) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error("expected a refusal");
}

describeOnEachEngine("share links", () => {
  it("makes a link to the person's content piece, with a 256-bit token stored only as its hash and sealed", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Poem", body: "Roses" });
    const share = await createShare(
      alice,
      { kind: "content", id: item.id, expires_in_hours: 24, max_views: 3 },
      ORIGIN,
    );
    expect(share).toMatchObject({
      kind: "content",
      target_id: item.id,
      title: "Poem",
      max_views: 3,
      views: 0,
      state: "active",
    });
    expect(share.url).toMatch(/^https:\/\/studio\.example\/s\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(share.expires_at!) - Date.parse(share.created_at)).toBe(24 * 3_600_000);
    const row = await db.selectFrom("shares").selectAll().where("id", "=", share.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(tokenOf(share)));
    expect(row.token_sealed).not.toContain(tokenOf(share));
    // The list shows the same link again, from the sealed token.
    expect((await listShares(alice, ORIGIN))[0].url).toBe(share.url);
    const never = await createShare(alice, { kind: "content", id: item.id, expires_in_hours: null }, ORIGIN);
    expect(never).toMatchObject({ expires_at: null, max_views: null });
    expect(tokenOf(never)).not.toBe(tokenOf(share));
  });

  it("refuses bad input with 400 and another person's target with 404", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const bobs = await createContent(bob, { title: "Bob's" });
    const item = await createContent(alice, { title: "Mine" });
    const refused = async (input: unknown) => rejection(createShare(alice, input, ORIGIN));
    expect(await refused({ kind: "album", id: item.id })).toEqual({
      status: 400,
      detail: 'kind must be "content", "file" or "project"',
    });
    expect((await refused({ kind: "content" })).status).toBe(400);
    expect((await refused([])).status).toBe(400);
    for (const hours of [0, -1, 8761, "24", Number.NaN]) {
      expect(await refused({ kind: "content", id: item.id, expires_in_hours: hours })).toMatchObject({
        status: 400,
        detail: expect.stringContaining("expires_in_hours"),
      });
    }
    for (const views of [0, 1.5, 1_000_001, "3"]) {
      expect(await refused({ kind: "content", id: item.id, max_views: views })).toMatchObject({
        status: 400,
        detail: expect.stringContaining("max_views"),
      });
    }
    expect((await createShare(alice, { kind: "content", id: item.id, expires_in_hours: 8760 }, ORIGIN)).state).toBe(
      "active",
    );
    expect(await refused({ kind: "content", id: bobs.id })).toEqual({ status: 404, detail: "Content not found" });
    expect(await refused({ kind: "file", id: item.id })).toEqual({ status: 404, detail: "File not found" });
    expect(await refused({ kind: "project", id: "nope" })).toEqual({ status: 404, detail: "Project not found" });
    expect(await listShares(bob, ORIGIN)).toEqual([]);
  });

  it("lists the person's live links newest first and revokes one (another person's is 404)", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const item = await createContent(alice, { title: "Text" });
    const file = await storeMedia(alice, "voice", Readable.from([mp3Frames()]), "take");
    const project = await createProject(alice, { title: "Film" });
    const first = await createShare(alice, { kind: "content", id: item.id }, ORIGIN);
    const second = await createShare(alice, { kind: "file", id: file.id }, ORIGIN);
    const third = await createShare(alice, { kind: "project", id: project.id }, ORIGIN);
    const listed = await listShares(alice, ORIGIN);
    expect(listed.map((share) => [share.id, share.title])).toEqual([
      [third.id, "Film"],
      [second.id, "take.mp3"],
      [first.id, "Text"],
    ]);
    expect((await listSharesOfTarget(alice, "file", file.id, ORIGIN)).map((share) => share.id)).toEqual([second.id]);
    expect(await rejection(revokeShare(bob, second.id))).toEqual({ status: 404, detail: "Share link not found" });
    await revokeShare(alice, second.id);
    expect((await rejection(revokeShare(alice, second.id))).status).toBe(404);
    expect((await listShares(alice, ORIGIN)).map((share) => share.id)).toEqual([third.id, first.id]);
    expect(await openShareForView(tokenOf(second))).toBe("gone");
    expect(await openShareForFile(tokenOf(second))).toBe("gone");
    expect(await revokeAllShares(alice)).toBe(2);
    expect(await revokeAllShares(alice)).toBe(0);
    expect(await listShares(alice, ORIGIN)).toEqual([]);
    expect(await openShareForView(tokenOf(first))).toBe("gone");
  });

  it("opens a link by its token: unknown tokens are null, and each open counts one view", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Open me", body: "<b>plain</b>" });
    const share = await createShare(alice, { kind: "content", id: item.id, max_views: 2 }, ORIGIN);
    expect(await openShareForView("x".repeat(43))).toBeNull();
    expect(await openShareForView("not a token")).toBeNull();
    const opened = await openShareForView(tokenOf(share));
    expect(opened).toMatchObject({
      share: { id: share.id, kind: "content", user_id: alice, target_id: item.id },
      title: "Open me",
      content: { title: "Open me", body: "<b>plain</b>", updated_at: item.updated_at },
    });
    // Files are not views: they are served while the views are not over the limit.
    expect(await openShareForFile(tokenOf(share))).toMatchObject({ title: "Open me" });
    expect(await openShareForView(tokenOf(share))).toMatchObject({ title: "Open me" });
    expect(await openShareForView(tokenOf(share))).toBe("gone");
    expect(await openShareForFile(tokenOf(share))).toMatchObject({ title: "Open me" });
    const [listed] = await listShares(alice, ORIGIN);
    expect(listed).toMatchObject({ views: 2, max_views: 2, state: "used_up" });
  });

  it("counts exactly max_views of 20 concurrent opens", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Popular" });
    const share = await createShare(alice, { kind: "content", id: item.id, max_views: 5 }, ORIGIN);
    const results = await Promise.all(Array.from({ length: 20 }, () => openShareForView(tokenOf(share))));
    expect(results.filter((result) => result !== "gone" && result !== null)).toHaveLength(5);
    expect(results.filter((result) => result === "gone")).toHaveLength(15);
    expect((await listShares(alice, ORIGIN))[0].views).toBe(5);
  });

  it("expires: an expired link is gone for pages and files, and listed as expired", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Soon over" });
    const share = await createShare(alice, { kind: "content", id: item.id, expires_in_hours: 1 }, ORIGIN);
    expect(await openShareForView(tokenOf(share))).not.toBe("gone");
    await db
      .updateTable("shares")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", share.id)
      .execute();
    expect(await openShareForView(tokenOf(share))).toBe("gone");
    expect(await openShareForFile(tokenOf(share))).toBe("gone");
    expect((await listShares(alice, ORIGIN))[0]).toMatchObject({ state: "expired", views: 1 });
  });

  it("shares a file and a project's files; a file the link does not share is null", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const image = await storeMedia(alice, "image", Readable.from([PNG_BYTES]), "sketch");
    const voice = await storeMedia(alice, "voice", Readable.from([mp3Frames()]), "take");
    const other = await storeMedia(alice, "image", Readable.from([PNG_BYTES]), "other");
    const bobsImage = await storeMedia(bob, "image", Readable.from([PNG_BYTES]), "bob");
    const fileShare = await createShare(alice, { kind: "file", id: image.id }, ORIGIN);
    expect(await openShareForView(tokenOf(fileShare))).toMatchObject({ title: "sketch.png", file: { id: image.id } });
    expect(await openShareForFile(tokenOf(fileShare), image.id)).toMatchObject({ file: { id: image.id } });
    expect(await openShareForFile(tokenOf(fileShare), other.id)).toBeNull();

    const project = await createProject(alice, {
      title: "Bundle",
      description: "All of it",
      voice_file: voice.id,
      image_file: image.id,
    });
    const projectShare = await createShare(alice, { kind: "project", id: project.id }, ORIGIN);
    const opened = await openShareForView(tokenOf(projectShare));
    expect(opened).toMatchObject({ title: "Bundle", project: { title: "Bundle", description: "All of it" } });
    expect(opened !== "gone" && opened?.project?.media.map(({ slot, file }) => [slot, file.id])).toEqual([
      ["image", image.id],
      ["voice", voice.id],
    ]);
    expect(await openShareForFile(tokenOf(projectShare), voice.id)).toMatchObject({ file: { id: voice.id } });
    expect(await openShareForFile(tokenOf(projectShare), other.id)).toBeNull();
    expect(await openShareForFile(tokenOf(projectShare), bobsImage.id)).toBeNull();
  });

  it("is gone once its target is deleted, and the list says so", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Doomed" });
    const file = await storeMedia(alice, "image", Readable.from([PNG_BYTES]), "doomed");
    const project = await createProject(alice, { title: "Doomed project" });
    const shares = [
      await createShare(alice, { kind: "content", id: item.id }, ORIGIN),
      await createShare(alice, { kind: "file", id: file.id }, ORIGIN),
      await createShare(alice, { kind: "project", id: project.id }, ORIGIN),
    ];
    await deleteContent(alice, item.id);
    await deleteLibraryFile(alice, file.id);
    await deleteProject(alice, project.id);
    for (const share of shares) {
      expect(await openShareForView(tokenOf(share))).toBe("gone");
      expect(await openShareForFile(tokenOf(share))).toBe("gone");
    }
    expect((await listShares(alice, ORIGIN)).map((share) => share.state)).toEqual(["gone", "gone", "gone"]);
    // A gone target's link counted no view.
    const views = await db.selectFrom("shares").select("views").where("user_id", "=", alice).execute();
    expect(views.map((row) => Number(row.views))).toEqual([0, 0, 0]);
  });

  it("stops while its owner is disabled and works again once they are enabled", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Paused" });
    const share = await createShare(alice, { kind: "content", id: item.id }, ORIGIN);
    await disablePerson(alice);
    expect(await openShareForView(tokenOf(share))).toBe("gone");
    expect(await openShareForFile(tokenOf(share))).toBe("gone");
    await enablePerson(alice);
    expect(await openShareForView(tokenOf(share))).toMatchObject({ title: "Paused" });
  });

  it("goes with its owner's account", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Leaving" });
    const share = await createShare(alice, { kind: "content", id: item.id }, ORIGIN);
    await deletePersonRows(alice);
    expect(await db.selectFrom("shares").select("id").where("id", "=", share.id).execute()).toEqual([]);
    expect(await openShareForView(tokenOf(share))).toBeNull();
  });

  it("with SHARING=off makes no link and opens none (as an unknown token), and the list and Revoke still work", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Before" });
    const share = await createShare(alice, { kind: "content", id: item.id }, ORIGIN);
    env.sharing = "off";
    try {
      expect(await rejection(createShare(alice, { kind: "content", id: item.id }, ORIGIN))).toEqual({
        status: 403,
        detail: "Sharing is turned off.",
      });
      expect(await openShareForView(tokenOf(share))).toBeNull();
      expect(await openShareForFile(tokenOf(share))).toBeNull();
      expect((await listShares(alice, ORIGIN)).map((listed) => listed.id)).toEqual([share.id]);
      await revokeShare(alice, share.id);
    } finally {
      env.sharing = "public";
    }
    expect(await openShareForView(tokenOf(share))).toBe("gone");
  });
});
