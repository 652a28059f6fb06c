import { beforeAll, describe, expect, it } from "vitest";
import { mp3Frames } from "../support/media";
import { api, baseUrl, newUser } from "../support/api";

// The API's lists answer a page at a time (app/lib/http/paging.server.ts): 100 entries unless `limit`
// asks for more, at most 500 (a larger limit is clamped), X-Total-Count, and `Link: <…>; rel="next"`
// until the last page. GET /api/content's page also ends before it passes 4 MiB of JSON.

type Person = Awaited<ReturnType<typeof newUser>>;

/** The next page's URL from a Link header (`</api/...>; rel="next"`), or null. */
function nextLink(headers: Headers): string | null {
  const link = headers.get("link");
  if (!link) return null;
  const match = /<([^>]+)>\s*;\s*rel="next"/.exec(link);
  return match ? match[1] : null;
}

/** Creates `count` small items, `parallel` at a time; their titles are "item <n>". */
async function fill(person: Person, count: number, parallel = 8) {
  for (let start = 0; start < count; start += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, count - start) }, async (_, at) => {
        const created = await api("/api/content", { token: person.token, json: { title: `item ${start + at}` } });
        expect(created.status).toBe(201);
      }),
    );
  }
}

describe("GET /api/content pages by default", () => {
  let person: Person;

  beforeAll(async () => {
    person = await newUser("paging");
    await fill(person, 520);
  }, 240_000);

  it("answers 100 items without a limit, names the next page until the last, and every item comes once", async () => {
    const first = await api("/api/content", { token: person.token });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(100);
    expect(first.headers.get("x-total-count")).toBe("520");
    expect(nextLink(first.headers)).toMatch(/^\/api\/content\?cursor=[\w-]+$/);

    const seen: string[] = first.body.map((item: { id: string }) => item.id);
    let next = nextLink(first.headers);
    let pages = 1;
    while (next) {
      const page = await api(next, { token: person.token });
      expect(page.status).toBe(200);
      expect(page.headers.get("x-total-count")).toBe("520");
      seen.push(...page.body.map((item: { id: string }) => item.id));
      next = nextLink(page.headers);
      pages++;
      if (next) expect(page.body).toHaveLength(100);
      else expect(page.body).toHaveLength(20);
    }
    expect(pages).toBe(6);
    expect(new Set(seen).size).toBe(520);
    // The pages follow the list's order: newest first, so the first item created comes last.
    expect(seen.at(-1)).toBe((await api("/api/content?offset=519", { token: person.token })).body[0].id);
  });

  it("gives at most 500 items: a larger limit is clamped, and the Link keeps the query", async () => {
    const clamped = await api("/api/content?limit=100000", { token: person.token });
    expect(clamped.status).toBe(200);
    expect(clamped.body).toHaveLength(500);
    expect(nextLink(clamped.headers)).toMatch(/^\/api\/content\?limit=100000&cursor=[\w-]+$/);
    const rest = await api(nextLink(clamped.headers)!, { token: person.token });
    expect(rest.body).toHaveLength(20);
    expect(nextLink(rest.headers)).toBeNull();

    const exactly = await api("/api/content?limit=500&offset=20", { token: person.token });
    expect(exactly.body).toHaveLength(500);
    expect(nextLink(exactly.headers)).toBeNull();
    const small = await api("/api/content?limit=7&offset=3", { token: person.token });
    expect(small.body).toHaveLength(7);
    expect(nextLink(small.headers)).toMatch(/^\/api\/content\?limit=7&cursor=[\w-]+$/);
    const after = await api(nextLink(small.headers)!, { token: person.token });
    expect(after.body).toEqual((await api("/api/content?limit=7&offset=10", { token: person.token })).body);
    expect(after.headers.get("x-total-count")).toBe("520");
  });

  it("pages a search the same way, its Link keeping q", async () => {
    const found = await api("/api/content?q=item&limit=200", { token: person.token });
    expect(found.body).toHaveLength(200);
    // A search counts no total (decision 0077): a full page cannot tell it, so there is no header.
    expect(found.headers.get("x-total-count")).toBeNull();
    expect(nextLink(found.headers)).toMatch(/^\/api\/content\?q=item&limit=200&cursor=[\w-]+$/);
    const second = await api(nextLink(found.headers)!, { token: person.token });
    expect(second.body).toEqual((await api("/api/content?q=item&limit=200&offset=200", { token: person.token })).body);
    expect(second.headers.get("x-total-count")).toBeNull();
    const last = await api("/api/content?q=item&limit=200&offset=400", { token: person.token });
    expect(last.body).toHaveLength(120);
    expect(last.headers.get("x-total-count")).toBe("520");
  });

  it("refuses a limit or offset that is not a whole number in range with 400 {detail}", async () => {
    const cases: [string, string][] = [
      ["limit=0", "limit must be at least 1"],
      ["limit=-5", "limit must be at least 1"],
      ["limit=abc", "limit must be a whole number"],
      ["limit=2.5", "limit must be a whole number"],
      ["limit=Infinity", "limit must be a whole number"],
      ["offset=-1", "offset must be at least 0"],
      ["offset=x", "offset must be a whole number"],
      ["offset=1e20", "offset must be a whole number"],
      ["offset=2000000000", "offset must be at most 1000000000"],
    ];
    for (const [query, detail] of cases) {
      for (const path of ["/api/content", "/api/videos", "/api/voice/list-files", "/api/project"]) {
        const refused = await api(`${path}?${query}`, { token: person.token });
        expect(refused.status, `${path}?${query}`).toBe(400);
        expect(refused.body).toEqual({ detail });
      }
    }
  });
});

describe("GET /api/content pages by cursor", () => {
  it("starts after the last item shown, whatever was deleted or added meanwhile", async () => {
    const person = await newUser("paging-cursor");
    await fill(person, 12);
    const all = (await api("/api/content", { token: person.token })).body.map((item: { id: string }) => item.id);
    const first = await api("/api/content?limit=5", { token: person.token });
    expect(first.body.map((item: { id: string }) => item.id)).toEqual(all.slice(0, 5));
    // Deleting one already shown and adding a newer one would shift an offset; the cursor does not move.
    expect((await api(`/api/content/${all[1]}`, { token: person.token, method: "DELETE" })).status).toBe(200);
    expect((await api("/api/content", { token: person.token, json: { title: "newer" } })).status).toBe(201);
    const second = await api(nextLink(first.headers)!, { token: person.token });
    expect(second.body.map((item: { id: string }) => item.id)).toEqual(all.slice(5, 10));
    expect(second.headers.get("x-total-count")).toBe("12");
    const third = await api(nextLink(second.headers)!, { token: person.token });
    expect(third.body.map((item: { id: string }) => item.id)).toEqual(all.slice(10));
    expect(nextLink(third.headers)).toBeNull();
  });

  it("refuses a cursor it did not make, or a cursor with an offset, with 400 {detail}", async () => {
    const person = await newUser("paging-bad-cursor");
    await fill(person, 3);
    const first = await api("/api/content?limit=1", { token: person.token });
    const cursor = new URL(nextLink(first.headers)!, baseUrl()).searchParams.get("cursor")!;
    const forged = Buffer.from(JSON.stringify({ l: "content", k: [5, "x", "y"] })).toString("base64url");
    for (const query of ["cursor=not%20a%20cursor", "cursor=e30", `cursor=${forged}`, `cursor=${cursor}&offset=1`]) {
      const refused = await api(`/api/content?${query}`, { token: person.token });
      expect(refused.status, query).toBe(400);
      expect(typeof refused.body.detail, query).toBe("string");
    }
    expect((await api(`/api/content?cursor=${cursor}`, { token: person.token })).body).toHaveLength(2);
  });
});

describe("GET /api/content answers are bounded in bytes", () => {
  it("ends a page of long items before 4 MiB of JSON and names the next from there", async () => {
    const person = await newUser("paging-bytes");
    const body = "x".repeat(100_000);
    for (let at = 0; at < 48; at += 8) {
      await Promise.all(
        Array.from({ length: 8 }, () => api("/api/content", { token: person.token, json: { title: "long", body } })),
      );
    }
    const response = await fetch(`${baseUrl()}/api/content?limit=500`, {
      headers: { Authorization: `Bearer ${person.token}` },
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(bytes.byteLength).toBeLessThanOrEqual(4 * 1024 * 1024);
    const items = JSON.parse(bytes.toString("utf8")) as unknown[];
    // 48 items of ~100 KB each are ~4.8 MB: the page holds what fits (41), and the rest follows.
    expect(items.length).toBe(41);
    expect(response.headers.get("x-total-count")).toBe("48");
    expect(nextLink(response.headers)).toMatch(/^\/api\/content\?limit=500&cursor=[\w-]+$/);
    const rest = await api(nextLink(response.headers)!, { token: person.token });
    expect(rest.body).toHaveLength(7);
    expect(nextLink(rest.headers)).toBeNull();
  });
});

describe("the other lists page by the same rules", () => {
  it("GET /api/project: 100 unless asked, Link rel=next and X-Total-Count, the same shape", async () => {
    const person = await newUser("paging-projects");
    for (let start = 0; start < 103; start += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, 103 - start) }, (_, at) =>
          api("/api/project/create", { token: person.token, json: { title: `Project ${start + at}` } }),
        ),
      );
    }
    const first = await api("/api/project", { token: person.token });
    expect(first.status).toBe(200);
    expect(first.body.projects).toHaveLength(100);
    expect(first.headers.get("x-total-count")).toBe("103");
    expect(nextLink(first.headers)).toBe("/api/project?offset=100");
    const last = await api(nextLink(first.headers)!, { token: person.token });
    expect(last.body.projects).toHaveLength(3);
    expect(nextLink(last.headers)).toBeNull();
    const ids = [...first.body.projects, ...last.body.projects].map((project: { id: string }) => project.id);
    expect(new Set(ids).size).toBe(103);
  });

  it("GET /api/voice/list-files and GET /api/videos page their files", async () => {
    const person = await newUser("paging-files");
    for (const name of ["a.mp3", "b.mp3", "c.mp3"]) {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(mp3Frames(3))], { type: "audio/mpeg" }), name);
      expect((await api("/api/voice/upload", { raw: form, token: person.token })).status).toBe(201);
    }
    const first = await api("/api/voice/list-files?limit=2", { token: person.token });
    expect(first.body).toEqual({ files: ["c.mp3", "b.mp3"] });
    expect(first.headers.get("x-total-count")).toBe("3");
    expect(nextLink(first.headers)).toBe("/api/voice/list-files?limit=2&offset=2");
    const last = await api(nextLink(first.headers)!, { token: person.token });
    expect(last.body).toEqual({ files: ["a.mp3"] });
    expect(nextLink(last.headers)).toBeNull();
    const all = await api("/api/voice/list-files", { token: person.token });
    expect(all.body.files).toHaveLength(3);
    expect(nextLink(all.headers)).toBeNull();

    const videos = await api("/api/videos?limit=1", { token: person.token });
    expect(videos.body).toEqual([]);
    expect(videos.headers.get("x-total-count")).toBe("0");
    expect(nextLink(videos.headers)).toBeNull();
  });
});
