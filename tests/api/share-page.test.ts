import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin";
import { api, newUser } from "../support/api";
import { isoMedia, webmBytes } from "../support/media";
import { startTestServer, type RunningServer } from "../support/server";

// The public shared page /s/{token} and its files (docs/screens.md#shared-page, decisions 0070 and 0090),
// on a server of its own: a small budget per client address (loopback, the default here, is not
// counted; the budget tests name their address with X-Forwarded-For), and the request log on (stdout;
// errors go to stderr). The 503 of a database outage is tests/api/outage-postgres.test.ts's (it stops
// a cluster of its own).
const BUDGET = 6;
const GONE = "This link has expired or was turned off.";
let server: RunningServer;
let log = "";
let errors = "";

beforeAll(async () => {
  server = await startTestServer({ LOG_REQUESTS: "1", SHARE_MAX_REQUESTS_PER_ADDRESS: String(BUDGET) });
  server.child.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  server.child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")));
}, 180_000);
afterAll(() => server?.stop());

type User = Awaited<ReturnType<typeof newUser>>;
const call = (path: string, init: { token?: string; json?: unknown; raw?: BodyInit; method?: string } = {}) =>
  api(path, { ...init, server: server.url });
const person = (prefix: string) => newUser(prefix, server.url);

const realPng = (width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 160, b: 90 } } })
    .png()
    .toBuffer();

async function upload(user: User, bytes: Buffer, filename: string, kind: string) {
  const form = new FormData();
  form.append("kind", kind);
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), filename);
  const saved = await call("/api/library/upload", { raw: form, token: user.token });
  expect(saved.status).toBe(201);
  return saved.body as { id: string; name: string; size: number; content_type: string };
}

async function writeText(user: User, title: string, body: string) {
  const created = await call("/api/content", { token: user.token, json: { title, body } });
  expect(created.status).toBe(201);
  return created.body as { id: string };
}

/** A link through POST /api/shares; `path` is /s/{token}. */
async function share(user: User, kind: string, id: string, extra: Record<string, unknown> = {}) {
  const made = await call("/api/shares", { token: user.token, json: { kind, id, ...extra } });
  expect(made.status).toBe(201);
  const url = new URL(made.body.url as string);
  return { id: made.body.id as string, url: made.body.url as string, path: url.pathname };
}

async function viewsOf(user: User, shareId: string): Promise<number> {
  const list = await call("/api/shares", { token: user.token });
  return list.body.shares.find((row: { id: string }) => row.id === shareId).views;
}

async function open(path: string, init: RequestInit = {}) {
  const response = await fetch(server.url + path, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** An attribute's value as the browser reads it. */
const unescape = (value: string) =>
  value
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

/** The file links a page renders (its img/video/audio src and its Downloads), as paths. */
function fileLinks(html: string): string[] {
  const links = html.matchAll(/<(?:img|video|audio|a) [^>]*?(?:src|href)="(\/s\/[^"]+\/file\/[^"]+)"/g);
  return [...links].map((match) => unescape(match[1]));
}

function metaContent(html: string, key: string): string | null {
  const tag = [...html.matchAll(/<meta [^>]*>/g)].map((match) => match[0]).find((t) => t.includes(`"${key}"`));
  return tag ? unescape(/content="([^"]*)"/.exec(tag)![1]) : null;
}

function expectSharedHeaders(headers: Headers) {
  expect(headers.get("x-robots-tag")).toBe("noindex");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
  expect(headers.get("cache-control")).toBe("no-store");
}

/** What every /s/ answer carries (decision 0090): the headers above and the shared page's CSP, which runs no script. */
function expectEveryShareHeader(headers: Headers, what: string) {
  expect(headers.get("x-robots-tag"), what).toBe("noindex");
  expect(headers.get("referrer-policy"), what).toBe("no-referrer");
  expect(headers.get("cache-control"), what).toBe("no-store");
  const csp = headers.get("content-security-policy") ?? "";
  expect(csp, what).toContain("default-src 'none'");
  expect(csp, what).toContain("script-src 'none'");
  expect(csp, what).not.toContain("nonce-");
}

/** Reads until `text` is in what the server wrote (its log lines come in batches), for at most 10 s. */
async function untilLogged(text: string) {
  for (let waited = 0; !log.includes(text) && waited < 10_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("the shared page of each kind", () => {
  it("a text: its title and body as text (a <script> shows as text), headers, meta and Open Graph, one view", async () => {
    const owner = await person("share-text");
    const body = "First line\n<script>alert('x')</script>\n  indented & <b>bold</b>";
    const item = await writeText(owner, "Notes <i>1</i>", body);
    const link = await share(owner, "content", item.id);

    const page = await open(link.path);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expectSharedHeaders(page.headers);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("default-src 'none'");
    // No script at all: nothing of the app's bundle, no inline data, and the body's <script> as text.
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toContain("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;");
    expect(page.text).toContain("Notes &lt;i&gt;1&lt;/i&gt;");
    expect(page.text).toContain("indented &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(page.text).toContain('class="shared-text"');
    expect(page.text).toContain("Made with Creative AI Studio");
    // Not the app's navigation.
    expect(page.text).not.toContain("shell-nav");

    expect(metaContent(page.text, "robots")).toBe("noindex");
    expect(metaContent(page.text, "og:title")).toBe("Notes <i>1</i>");
    expect(metaContent(page.text, "og:type")).toBe("website");
    expect(metaContent(page.text, "og:url")).toBe(link.url);
    expect(metaContent(page.text, "twitter:card")).toBe("summary");
    expect(metaContent(page.text, "og:image")).toBeNull();
    expect(fileLinks(page.text)).toEqual([]);
    expect(await viewsOf(owner, link.id)).toBe(1);

    // A HEAD says whether the link is live, and counts nothing.
    const head = await fetch(server.url + link.path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await viewsOf(owner, link.id)).toBe(1);
  });

  it("an image: <img>, og:image absolute and a large card; its file 200, 206 ranges and a Download, counting no view", async () => {
    const owner = await person("share-image");
    const png = await realPng();
    const file = await upload(owner, png, "Café «sunset».png", "photo");
    const link = await share(owner, "file", file.id);

    const page = await open(link.path);
    expect(page.status).toBe(200);
    const [src, download] = fileLinks(page.text);
    expect(src).toMatch(new RegExp(`^${link.path}/file/${file.id}\\?g=\\d+\\.[A-Za-z0-9_-]{43}$`));
    expect(download).toBe(`${src}&download=1`);
    expect(page.text).toMatch(/<img [^>]*class="shared-image"/);
    expect(page.text).toContain('width="40"');
    expect(metaContent(page.text, "og:image")).toBe(server.url + src);
    expect(metaContent(page.text, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(page.text, "og:title")).toBe(file.name);

    const whole = await fetch(server.url + src);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("image/png");
    expect(whole.headers.get("x-content-type-options")).toBe("nosniff");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expectSharedHeaders(whole.headers);
    expect(Buffer.from(await whole.arrayBuffer()).equals(png)).toBe(true);

    const part = await fetch(server.url + src, { headers: { Range: "bytes=0-7" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-7/${png.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(0, 8))).toBe(true);

    const saved = await fetch(server.url + download);
    expect(saved.status).toBe(200);
    const disposition = saved.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(disposition).not.toMatch(/filename="[^"]*[^\x20-\x7e]/);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1])).toBe(file.name);
    await saved.arrayBuffer();

    // Files count no view: still the one page view.
    expect(await viewsOf(owner, link.id)).toBe(1);
  });

  it("a file link needs the page's grant for this very link, and only reaches the files it shares", async () => {
    const owner = await person("share-grant");
    const file = await upload(owner, await realPng(), "grant.png", "photo");
    const other = await upload(owner, await realPng(), "other.png", "photo");
    const link = await share(owner, "file", file.id);
    const second = await share(owner, "file", file.id);
    const [src] = fileLinks((await open(link.path)).text);
    const [secondSrc] = fileLinks((await open(second.path)).text);
    const grantOf = (path: string) => new URL(path, server.url).searchParams.get("g");

    expect((await open(`${link.path}/file/${file.id}`)).status).toBe(403);
    expect((await open(`${link.path}/file/${file.id}?g=${grantOf(secondSrc)}`)).status).toBe(403);
    expect((await open(`${link.path}/file/${file.id}?g=1.${"A".repeat(43)}`)).status).toBe(403);
    expect((await open(`${link.path}/file/${other.id}?g=${grantOf(src)}`)).status).toBe(404);
    expect((await open(src)).status).toBe(200);
    expect((await open(src, { method: "POST" })).status).toBe(405);
  });

  it("audio and video get players whose files answer byte ranges", async () => {
    const owner = await person("share-players");
    const memo = await upload(owner, isoMedia("M4A ", 400), "memo.m4a", "memo");
    const clip = await upload(owner, webmBytes(800), "clip.webm", "clip");
    const audio = await open((await share(owner, "file", memo.id)).path);
    expect(audio.text).toMatch(/<audio [^>]*controls/);
    expect(metaContent(audio.text, "twitter:card")).toBe("summary");
    const video = await open((await share(owner, "file", clip.id)).path);
    expect(video.text).toMatch(/<video [^>]*controls/);
    const [src] = fileLinks(video.text);
    const part = await fetch(server.url + src, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${clip.size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it("a project: its title, description and each of its media with its player or picture and a Download", async () => {
    const owner = await person("share-project");
    const image = await upload(owner, await realPng(), "cover.png", "photo");
    const clip = await upload(owner, webmBytes(300), "trailer.webm", "clip");
    const project = await call("/api/project/create", {
      token: owner.token,
      json: { title: "Trip <film>", description: "Day one\nDay two", image_file: image.id, video_file: clip.id },
    });
    expect(project.status).toBe(201);
    const link = await share(owner, "project", project.body.id);
    const page = await open(link.path);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Trip &lt;film&gt;");
    expect(page.text).toContain("Day one\nDay two");
    expect(page.text).toMatch(/<img [^>]*alt="cover.png"/);
    expect(page.text).toMatch(/<video [^>]*controls/);
    const links = fileLinks(page.text);
    expect(links).toHaveLength(4);
    for (const path of links) expect((await open(path)).status).toBe(200);
    expect(await viewsOf(owner, link.id)).toBe(1);
  });
});

describe("ending a link", () => {
  it("max_views 5 under 20 concurrent opens: exactly 5 pages, 15 the 410 page; the last viewer's files still load", async () => {
    const owner = await person("share-max");
    const file = await upload(owner, await realPng(), "five.png", "photo");
    const link = await share(owner, "file", file.id, { max_views: 5 });
    const pages = await Promise.all(Array.from({ length: 20 }, () => open(link.path)));
    const shown = pages.filter((page) => page.status === 200);
    expect(shown).toHaveLength(5);
    const refused = pages.filter((page) => page.status === 410);
    expect(refused).toHaveLength(15);
    for (const page of refused) {
      expect(page.text).toContain(GONE);
      expect(page.text).not.toContain("five.png");
      expectSharedHeaders(page.headers);
    }
    expect(await viewsOf(owner, link.id)).toBe(5);
    // The fifth viewer's picture and player still load (its grant), with ranges; the bare file link does not.
    const [src] = fileLinks(shown[4].text);
    expect((await open(src)).status).toBe(200);
    expect((await open(src, { headers: { Range: "bytes=0-3" } })).status).toBe(206);
    expect((await open(`${link.path}/file/${file.id}`)).status).toBe(403);
    expect((await open(link.path)).status).toBe(410);
    // A HEAD answers as the GET would: the views are used up.
    expect((await fetch(server.url + link.path, { method: "HEAD" })).status).toBe(410);
  });

  it("revoked: the page and its files are 410 at once, grant or not", async () => {
    const owner = await person("share-revoke");
    const file = await upload(owner, await realPng(), "revoke.png", "photo");
    const link = await share(owner, "file", file.id);
    const [src] = fileLinks((await open(link.path)).text);
    expect((await open(src)).status).toBe(200);
    expect((await call(`/api/shares/${link.id}`, { token: owner.token, method: "DELETE" })).status).toBeLessThan(300);
    const page = await open(link.path);
    expect(page.status).toBe(410);
    expect(page.text).toContain(GONE);
    const file410 = await open(src, { headers: { Range: "bytes=0-3" } });
    expect(file410.status).toBe(410);
    expect(file410.text).toBe(GONE);
    expectSharedHeaders(file410.headers);
  });

  it("expired: 410, page and files", async () => {
    const owner = await person("share-expired");
    const file = await upload(owner, await realPng(), "soon.png", "photo");
    // 0.0005 hours: under two seconds.
    const link = await share(owner, "file", file.id, { expires_in_hours: 0.0005 });
    const page = await open(link.path);
    expect(page.status).toBe(200);
    const [src] = fileLinks(page.text);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await open(link.path)).status).toBe(410);
    expect((await open(src)).status).toBe(410);
  });

  it("the target deleted: 410 (a text, and a file whose grant was still good)", async () => {
    const owner = await person("share-deleted");
    const item = await writeText(owner, "Gone soon", "bye");
    const textLink = await share(owner, "content", item.id);
    expect((await open(textLink.path)).status).toBe(200);
    expect((await call(`/api/content/${item.id}`, { token: owner.token, method: "DELETE" })).status).toBeLessThan(300);
    const page = await open(textLink.path);
    expect(page.status).toBe(410);
    expect(page.text).toContain(GONE);

    const file = await upload(owner, await realPng(), "deleted.png", "photo");
    const fileLink = await share(owner, "file", file.id);
    const [src] = fileLinks((await open(fileLink.path)).text);
    expect((await call(`/api/library/${file.id}`, { token: owner.token, method: "DELETE" })).status).toBe(200);
    expect((await open(fileLink.path)).status).toBe(410);
    expect((await open(src)).status).toBe(410);
  });

  it("a disabled owner: 410 for the page and its files; enabled again, the link works", async () => {
    const owner = await person("share-disabled");
    const file = await upload(owner, await realPng(), "owner.png", "photo");
    const link = await share(owner, "file", file.id);
    const [src] = fileLinks((await open(link.path)).text);
    const admin = (args: string[]) => runAdmin(args, { dataDir: server.dataDir });
    expect((await admin(["disable", owner.email])).code).toBe(0);
    expect((await open(link.path)).status).toBe(410);
    expect((await open(src)).status).toBe(410);
    expect((await admin(["enable", owner.email])).code).toBe(0);
    expect((await open(link.path)).status).toBe(200);
  }, 60_000);

  it("an unknown token (or none that could be one) is the 404 page, and its file links 404", async () => {
    for (const token of ["A".repeat(43), "short", "x".repeat(300)]) {
      const page = await open(`/s/${token}`);
      expect(page.status).toBe(404);
      expect(page.text).toContain("This page does not exist.");
      expectSharedHeaders(page.headers);
      expect((await open(`/s/${token}/file/some-id?g=1.${"A".repeat(43)}`)).status).toBe(404);
    }
  });
});

describe("safety", () => {
  it("a client address past its budget gets 429 with Retry-After, as text; another address does not", async () => {
    const owner = await person("share-budget");
    const item = await writeText(owner, "Budget", "text");
    const link = await share(owner, "content", item.id);
    const from = (address: string, path = link.path) => open(path, { headers: { "X-Forwarded-For": address } });
    for (let i = 0; i < BUDGET - 1; i++) expect((await from("203.0.113.77")).status).toBe(200);
    // The file route shares the budget.
    expect((await from("203.0.113.77", `${link.path}/file/x`)).status).toBe(404);
    const refused = await from("203.0.113.77");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(refused.text).toMatch(/^Too many requests\. Try again in (1 second|\d+ seconds)\.$/);
    expectSharedHeaders(refused.headers);
    expect((await from("203.0.113.77", `${link.path}/file/x`)).status).toBe(429);
    expect((await from("203.0.113.78")).status).toBe(200);
  });

  it("the request log masks the token: /s/*** for the page and its files", async () => {
    const owner = await person("share-log");
    const file = await upload(owner, await realPng(), "log.png", "photo");
    const link = await share(owner, "file", file.id);
    const [src] = fileLinks((await open(link.path)).text);
    await open(src);
    const token = link.path.slice("/s/".length);
    for (let waited = 0; !log.includes(`/s/***/file/${file.id} 200`) && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log).toMatch(/^GET \/s\/\*\*\* 200 /m);
    expect(log).toContain(`GET /s/***/file/${file.id} 200 `);
    expect(log).not.toContain(token);
  });

  it("SHARING=off: every /s/ answer is 404, a live link's page and files too", async () => {
    const owner = await person("share-off");
    const file = await upload(owner, await realPng(), "off.png", "photo");
    const link = await share(owner, "file", file.id);
    const [src] = fileLinks((await open(link.path)).text);
    const off = await startTestServer({ SHARING: "off", DATA_DIR: server.dataDir });
    try {
      const page = await fetch(off.url + link.path);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain("This page does not exist.");
      expect((await fetch(off.url + src)).status).toBe(404);
      expect((await fetch(`${off.url}/s/${"B".repeat(43)}`)).status).toBe(404);
    } finally {
      await off.stop();
    }
    expect(await viewsOf(owner, link.id)).toBe(1);
  }, 180_000);
});

describe("every /s/ answer (decision 0090)", () => {
  it("404, 405, 410 and 429 carry noindex, no-referrer, no-store and the script-free CSP, as the page does", async () => {
    const owner = await person("share-headers");
    const file = await upload(owner, await realPng(), "headers.png", "photo");
    const live = await share(owner, "file", file.id);
    const ended = await share(owner, "file", file.id);
    expect((await call(`/api/shares/${ended.id}`, { token: owner.token, method: "DELETE" })).status).toBe(204);
    const token = live.path.slice("/s/".length);
    const unknown = `/s/${"C".repeat(43)}`;
    const grant = `g=1.${"A".repeat(43)}`;
    const check = async (what: string, status: number, path: string, init: RequestInit = {}) => {
      const response = await fetch(server.url + path, init);
      await response.arrayBuffer();
      expect(response.status, what).toBe(status);
      expectEveryShareHeader(response.headers, what);
      return response;
    };
    await check("the page", 200, live.path);
    await check("the page's HEAD, its path in capitals", 200, `/S/${token}`, { method: "HEAD" });
    await check("an unknown link", 404, unknown);
    await check("an unknown link's file", 404, `${unknown}/file/x?${grant}`);
    await check("a path under a link that no route has", 404, `${live.path}/elsewhere/else`);
    await check("a file without the page's grant", 403, `${live.path}/file/${file.id}`);
    await check("a revoked link", 410, ended.path);
    await check("a revoked link's file", 410, `${ended.path}/file/${file.id}?${grant}`);
    const refused = await check("a POST", 405, live.path, { method: "POST" });
    expect(refused.headers.get("allow")).toBe("GET, HEAD");

    const from = { headers: { "X-Forwarded-For": "203.0.113.91" } };
    for (let index = 0; index < BUDGET; index++) await (await fetch(server.url + unknown, from)).arrayBuffer();
    const limited = await check("past the budget", 429, unknown, from);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("POST, PUT, PATCH, DELETE and OPTIONS on a page, its .data and its files are 405 with Allow: counted nowhere, logged with the masked path only", async () => {
    const owner = await person("share-methods");
    const file = await upload(owner, await realPng(), "methods.png", "photo");
    const link = await share(owner, "file", file.id);
    const token = link.path.slice("/s/".length);
    const errorsBefore = errors.length;
    const logBefore = log.length;
    for (const path of [link.path, `${link.path}.data`, `${link.path}/file/${file.id}`]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const response = await fetch(server.url + path, {
          method,
          ...(method === "OPTIONS"
            ? {}
            : { body: "intent=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
        });
        const what = `${method} ${path}`;
        expect(response.status, what).toBe(405);
        expect(response.headers.get("allow"), what).toBe("GET, HEAD");
        expect(await response.text(), what).toBe("Method Not Allowed");
        expectEveryShareHeader(response.headers, what);
      }
    }
    await untilLogged(`OPTIONS /s/***/file/${file.id} 405 `);
    expect(log.slice(logBefore)).toMatch(/^POST \/s\/\*\*\* 405 /m);
    expect(log.slice(logBefore)).not.toContain(token);
    // React Router made no 405 of its own for a missing action: nothing on stderr names the path.
    const written = errors.slice(errorsBefore);
    expect(written).not.toContain(token);
    expect(written).not.toMatch(/did not provide an `action`|Method Not Allowed/i);
    // Nothing was counted: the link is unopened, and the address budget untouched (loopback is never counted).
    expect(await viewsOf(owner, link.id)).toBe(0);
    expect((await open(link.path)).status).toBe(200);
  });
});
