import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIFF_TIMEOUT_MS } from "~/common/content/word-diff";
import { api, baseUrl, newUser, screenPost, signInWithForm } from "../support/api";
import { SERVER_START_TIMEOUT_MS, startTestServer, type RunningServer } from "../support/server";

/**
 * The History screen's server side (docs/screens.md#history, decision 0073): the page as served (the
 * list and a word diff, no script needed), Restore as a plain form, the editor's `restore-edit-start`,
 * and another person's piece or version refused with nothing changed.
 */
type User = Awaited<ReturnType<typeof newUser>>;
interface Version {
  id: string;
  reason: string;
  created_at: string;
}

async function page(cookie: string, path: string) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { Cookie: cookie } });
  return { status: response.status, html: await response.text() };
}
async function newPiece(user: User, title: string, body: string) {
  const made = await api("/api/content", { token: user.token, json: { title, body } });
  expect(made.status).toBe(201);
  return made.body as { id: string; updated_at: string };
}
const put = (user: User, id: string, title: string, body: string) =>
  api(`/api/content/${id}`, { method: "PUT", token: user.token, json: { title, body } });
const versionsOf = async (user: User, id: string) =>
  (await api<Version[]>(`/api/content/${id}/versions`, { token: user.token })).body;
const bodyOf = async (user: User, id: string) =>
  (await api(`/api/content/${id}`, { token: user.token })).body as { body: string; updated_at: string };

describe("the History screen", () => {
  it("lists the versions and opens one as a word diff in the page as served; markup stays text", async () => {
    const alice = await newUser("history-page");
    const cookie = await signInWithForm(alice.email);
    const piece = await newPiece(alice, "Tide", "a red boat");
    expect((await put(alice, piece.id, "Tide", "a blue boat <script>alert(1)</script>")).status).toBe(200);

    const empty = await newPiece(alice, "Untouched", "never saved again");
    expect((await page(cookie, `/content/${empty.id}/history`)).html).toContain(
      "No versions yet. Versions are kept when you save.",
    );

    const listed = await page(cookie, `/content/${piece.id}/history`);
    expect(listed.status).toBe(200);
    const versions = await versionsOf(alice, piece.id);
    expect(versions).toHaveLength(2);
    for (const version of versions) expect(listed.html).toContain(`<time dateTime="${version.created_at}">`);
    expect(listed.html.match(/class="history-reason">Saved</g)).toHaveLength(2);

    const oldest = versions[versions.length - 1];
    const opened = await page(cookie, `/content/${piece.id}/history?version=${oldest.id}`);
    expect(opened.status).toBe(200);
    expect(opened.html).toMatch(/<del><span class="visually-hidden">\[removed: <\/span>red<span/);
    expect(opened.html).toMatch(/<ins><span class="visually-hidden">\[added: <\/span>blue<span/);
    expect(opened.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(opened.html).not.toContain("<script>alert(1)</script>");
    expect(opened.html).toContain('name="intent" value="restore-version"');

    // A version that is not kept (or not this piece's) is said on the page, with a 404.
    const missing = await page(cookie, `/content/${piece.id}/history?version=no-such-version`);
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("That version is no longer kept.");
  });

  it("restores as a plain form: back to the view with the toast, a restore version kept; others are refused", async () => {
    const [alice, bob] = await Promise.all([newUser("history-a"), newUser("history-b")]);
    const [aliceCookie, bobCookie] = await Promise.all([signInWithForm(alice.email), signInWithForm(bob.email)]);
    const piece = await newPiece(alice, "Letter", "Dear Sam");
    expect((await put(alice, piece.id, "Letter", "Dear Sam, hello")).status).toBe(200);
    const oldest = (await versionsOf(alice, piece.id)).at(-1)!;
    const bobs = await newPiece(bob, "Bob's", "his own");

    // Bob sees no history of Alice's piece, and cannot restore her versions, on her piece or on his.
    expect((await page(bobCookie, `/content/${piece.id}/history`)).status).toBe(404);
    for (const target of [piece.id, bobs.id]) {
      const refused = await screenPost(bobCookie, `/content/${target}/history`, {
        intent: "restore-version",
        version_id: oldest.id,
      });
      expect(refused.status).toBe(302);
      expect(refused.headers.get("location")).toBe(`/content/${target}/history?version=${oldest.id}`);
    }
    expect((await bodyOf(alice, piece.id)).body).toBe("Dear Sam, hello");
    expect((await bodyOf(bob, bobs.id)).body).toBe("his own");

    const before = await bodyOf(alice, piece.id);
    const restored = await screenPost(aliceCookie, `/content/${piece.id}/history`, {
      intent: "restore-version",
      version_id: oldest.id,
    });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe(`/content/${piece.id}`);
    const after = await bodyOf(alice, piece.id);
    expect(after.body).toBe("Dear Sam");
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect((await versionsOf(alice, piece.id))[0].reason).toBe("restore");
    // The toast rides on the redirect's cookie and is shown by the view.
    const toastCookie = restored.headers.get("set-cookie")!.split(";")[0];
    const view = await page(`${aliceCookie}; ${toastCookie}`, `/content/${piece.id}`);
    expect(view.html).toMatch(/Restored the version from [A-Z][a-z]{2} \d{1,2}, \d{4}, [^<]* UTC\./);
  });

  it("restore-edit-start: the editor's Cancel goes back to the version from the edit's start", async () => {
    const [alice, bob] = await Promise.all([newUser("history-edit-a"), newUser("history-edit-b")]);
    const [aliceCookie, bobCookie] = await Promise.all([signInWithForm(alice.email), signInWithForm(bob.email)]);
    const piece = await newPiece(alice, "Draft", "where the edit began");
    const autosave = (body: string, updatedAt: string) =>
      api(`/api/content/${piece.id}/autosave`, {
        token: alice.token,
        json: { title: "Draft", body, updated_at: updatedAt, editing_since: piece.updated_at },
      });
    const first = await autosave("first autosave", piece.updated_at);
    expect(first.status).toBe(200);
    expect((await autosave("second autosave", first.body.updated_at)).status).toBe(200);

    // Bob's request finds no version of Alice's piece: 404, nothing changes.
    const refused = await screenPost(bobCookie, `/content/${piece.id}`, {
      intent: "restore-edit-start",
      editing_since: piece.updated_at,
    });
    expect(refused.status).toBe(404);
    expect((await bodyOf(alice, piece.id)).body).toBe("second autosave");
    // A time before any version: 404 too (the editor then saves the starting text again).
    const tooEarly = await screenPost(aliceCookie, `/content/${piece.id}`, {
      intent: "restore-edit-start",
      editing_since: "2000-01-01T00:00:00.000Z",
    });
    expect(tooEarly.status).toBe(404);
    expect((await bodyOf(alice, piece.id)).body).toBe("second autosave");

    const back = await screenPost(aliceCookie, `/content/${piece.id}`, {
      intent: "restore-edit-start",
      editing_since: piece.updated_at,
    });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(`/content/${piece.id}`);
    expect((await bodyOf(alice, piece.id)).body).toBe("where the edit began");
    expect((await versionsOf(alice, piece.id)).map((version) => version.reason)).toEqual([
      "restore",
      "autosave",
      "save",
    ]);
  });
});

describe("the History screen's word diff under load", () => {
  // A server of its own: the suite's shared one answers other files' requests meanwhile, and this
  // test measures how long /api/health waits for the event loop.
  let own: RunningServer;
  beforeAll(async () => {
    own = await startTestServer();
  }, SERVER_START_TIMEOUT_MS);
  afterAll(async () => {
    await own?.stop();
  });

  /** 100,000 characters of words none of which the other text has: a rewrite, diffed until DIFF_TIMEOUT_MS. */
  const rewrite = (prefix: string) => {
    let text = "";
    for (let i = 0; text.length < 100_000; i++) text += `${prefix}${i} `;
    return text.slice(0, 100_000);
  };
  /** How long a GET takes to answer in full, in ms. */
  const timed = async (url: string, init?: RequestInit) => {
    const started = performance.now();
    const response = await fetch(url, init);
    const text = await response.text();
    return { status: response.status, text, ms: performance.now() - started };
  };

  it("four 100,000-character diffs at once keep /api/health under 100 ms (the diffs run in worker threads)", async () => {
    const alice = await newUser("history-load", own.url);
    const cookie = await signInWithForm(alice.email, own.url);
    const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
      api(path, { ...init, token: alice.token, server: own.url });
    const made = await call("/api/content", { json: { title: "Rewrite", body: rewrite("before") } });
    expect(made.status).toBe(201);
    const rewritten = { title: "Rewrite", body: rewrite("after") };
    expect((await call(`/api/content/${made.body.id}`, { method: "PUT", json: rewritten })).status).toBe(200);
    const oldest = ((await call(`/api/content/${made.body.id}/versions`)).body as Version[]).at(-1)!;
    const history = (search = "") =>
      timed(`${own.url}/content/${made.body.id}/history${search}`, { headers: { Cookie: cookie } });
    const health = `${own.url}/api/health`;

    // The screen once without a diff (its code loaded), then the machine's own noise: the slowest of 10
    // health answers with nothing else running.
    expect((await history()).status).toBe(200);
    let quietWorst = 0;
    for (let i = 0; i < 10; i++) {
      quietWorst = Math.max(quietWorst, (await timed(health)).ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // Health every 20 ms while four people open the diff at once.
    const waits: number[] = [];
    let diffing = true;
    const polling = (async () => {
      while (diffing) {
        const answer = await timed(health);
        expect(answer.status).toBe(200);
        waits.push(answer.ms);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const pages = await Promise.all(Array.from({ length: 4 }, () => history(`?version=${oldest.id}`)));
    const diffsMs = performance.now() - started;
    diffing = false;
    await polling;

    for (const page of pages) {
      expect(page.status).toBe(200);
      // Rewritten from scratch: the diff gave up (DIFF_TIMEOUT_MS) and shows the version removed and the text added.
      expect(page.text).toContain('<span class="visually-hidden">[removed: </span>before0 before1 ');
      expect(page.text).toContain('<span class="visually-hidden">[added: </span>after0 after1 ');
    }
    // The diffs were real work (each runs to its timeout), and health was asked all along.
    expect(diffsMs).toBeGreaterThanOrEqual(DIFF_TIMEOUT_MS);
    expect(waits.length).toBeGreaterThanOrEqual(5);

    // The figure is 100 ms. docs/testing.md keeps timings out of `npm test` because the machines that run
    // it are shared and often loaded; this one is in it (the diff promises health under 100 ms), so it reads the figure as nine
    // health answers in ten (a loaded two-core machine may hold one answer of this client's past it: seen once at
    // 113 ms with 25 test files running beside it), and every answer under 80% of DIFF_TIMEOUT_MS: a diff on the
    // main thread holds the event loop at least DIFF_TIMEOUT_MS each (four queued hold it four times over), so code
    // that diffs on the main thread fails both on any machine. When this machine was already slower than 50 ms a
    // health answer just before, the 100 ms becomes twice that.
    const sorted = [...waits].sort((a, b) => a - b);
    const ninthInTen = sorted[Math.floor(0.9 * (sorted.length - 1))];
    const worst = sorted.at(-1)!;
    const said = `health waited ${Math.round(ninthInTen)} ms nine times in ten, ${Math.round(worst)} ms at worst (quiet: ${Math.round(quietWorst)} ms; the diffs took ${Math.round(diffsMs)} ms)`;
    expect(ninthInTen, said).toBeLessThan(Math.max(100, 2 * quietWorst));
    expect(worst, said).toBeLessThan(0.8 * DIFF_TIMEOUT_MS);
  });
});
