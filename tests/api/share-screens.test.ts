import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { api, baseUrl, newUser, screenPost, signInWithForm } from "../support/api";
import { PNG_BYTES } from "../support/media";

/**
 * The Share dialog's forms without JavaScript (docs/screens.md#sharing, decision 0071): intent=share on
 * the library, a content view and the projects redirects (PRG) to the screen's panel, which shows the
 * link and its QR code; a bad maximum is a 400 beside its field; past SHARES_MAX_PER_PERSON live links
 * a 409 says so in the screen's language; /account lists the links a page at a time ("Older links") and
 * its Revoke asks first. SHARING=off hides the controls and refuses intent=share.
 */
async function page(cookie: string, path: string, server = baseUrl()) {
  const response = await fetch(`${server}${path}`, { headers: { Cookie: cookie } });
  return { status: response.status, html: await response.text() };
}

async function uploadPicture(token: string, name = "Sunset.png", server = baseUrl()) {
  const form = new FormData();
  form.append("kind", "photo");
  form.append("file", new Blob([new Uint8Array(PNG_BYTES)], { type: "image/png" }), name);
  const answer = await api("/api/library/upload", { raw: form, token, server });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

const shareFields = (kind: string, id: string, extra: Record<string, string> = {}) => ({
  intent: "share",
  kind,
  id,
  expires_in_hours: "168",
  max_views: "",
  ...extra,
});

/** The link in the panel's read-only field. */
const linkIn = (html: string) => /value="(https?:\/\/[^"]+\/s\/[^"]+)"/.exec(html)?.[1];

describe("Share without JavaScript", () => {
  it("a library file: the post redirects to its panel, which shows the link, its QR code and expiry", async () => {
    const person = await newUser("share-file");
    const cookie = await signInWithForm(person.email);
    const id = await uploadPicture(person.token);

    const library = await page(cookie, "/library");
    expect(library.html).toContain(`href="/library?share=${id}"`);
    const opened = await page(cookie, `/library?share=${id}`);
    expect(opened.status).toBe(200);
    expect(opened.html).toContain("Create link");
    expect(opened.html).toMatch(/<option value="168" selected="">7 days<\/option>/);

    const posted = await screenPost(cookie, `/library?share=${id}`, shareFields("file", id, { max_views: "3" }));
    expect(posted.status).toBe(302);
    const location = posted.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/library\\?share=${id}&shared=[\\w-]+$`));
    const shown = await page(cookie, location);
    const link = linkIn(shown.html);
    expect(link).toMatch(/\/s\/[\w-]{22,}$/);
    expect(shown.html).toContain('src="data:image/svg+xml;base64,');
    expect(shown.html).toContain("QR code of the link to");
    expect(shown.html).toContain("0 / 3 views");
    expect(shown.html).toMatch(/Expires [A-Z][a-z]{2} \d{1,2}, \d{4}/);

    // A second link: the first is listed under "Links made before".
    const again = await screenPost(
      cookie,
      `/library?share=${id}`,
      shareFields("file", id, { expires_in_hours: "never" }),
    );
    const second = await page(cookie, again.headers.get("location")!);
    expect(second.html).toContain("Links made before");
    expect(second.html).toContain(link);
    expect(second.html).toContain("Never expires");
  });

  it("refuses a bad maximum of views with a 400 beside the field, and makes no link", async () => {
    const person = await newUser("share-bad");
    const cookie = await signInWithForm(person.email);
    const id = await uploadPicture(person.token);
    for (const max_views of ["abc", "0", "-2", "1.5", "5000000"]) {
      const response = await fetch(`${baseUrl()}/library?share=${id}`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: new URLSearchParams(shareFields("file", id, { max_views })),
        redirect: "manual",
      });
      expect(response.status, max_views).toBe(400);
      const html = await response.text();
      expect(html).toContain('aria-invalid="true"');
      expect(html).toMatch(/id="share-file-[\w-]+-max-views-error">Enter a whole number of views from 1 to 1,000,000/);
    }
    expect(linkIn((await page(cookie, `/library?share=${id}`)).html)).toBeUndefined();
  });

  it("another person's file is not theirs to share (404), and their panel does not open", async () => {
    const owner = await newUser("share-owner");
    const other = await newUser("share-other");
    const cookie = await signInWithForm(other.email);
    const id = await uploadPicture(owner.token);
    const posted = await screenPost(cookie, `/library?share=${id}`, shareFields("file", id));
    expect(posted.status).toBe(404);
    expect((await page(cookie, `/library?share=${id}`)).html).not.toContain("Create link");
  });

  it("a content piece and a project, from their own screens", async () => {
    const person = await newUser("share-more");
    const cookie = await signInWithForm(person.email);
    const content = await api("/api/content", {
      json: { title: "Field notes", body: "Rain at noon." },
      token: person.token,
    });
    const project = await api("/api/project/create", { json: { title: "Summer film" }, token: person.token });
    const contentPath = `/content/${content.body.id}`;

    expect((await page(cookie, contentPath)).html).toContain(`href="${contentPath}?share=${content.body.id}"`);
    const fromContent = await screenPost(
      cookie,
      `${contentPath}?share=${content.body.id}`,
      shareFields("content", content.body.id),
    );
    expect(fromContent.status).toBe(302);
    expect(fromContent.headers.get("location")).toMatch(
      new RegExp(`^${contentPath}\\?share=${content.body.id}&shared=`),
    );
    const contentPanel = await page(cookie, fromContent.headers.get("location")!);
    expect(contentPanel.html).toContain("Share “Field notes”");
    expect(linkIn(contentPanel.html)).toBeDefined();

    expect((await page(cookie, "/projects")).html).toContain(`href="/projects?share=${project.body.id}"`);
    const fromProjects = await screenPost(
      cookie,
      `/projects?share=${project.body.id}`,
      shareFields("project", project.body.id),
    );
    expect(fromProjects.status).toBe(302);
    const projectPanel = await page(cookie, fromProjects.headers.get("location")!);
    expect(projectPanel.html).toContain("Share “Summer film”");
    expect(linkIn(projectPanel.html)).toBeDefined();

    // The account lists both, newest first, with their kinds.
    const account = (await page(cookie, "/account")).html;
    expect(account).toContain("Shared links");
    expect(account.indexOf("Summer film")).toBeLessThan(account.indexOf("Field notes"));
    expect(account).toContain(">Project<");
    expect(account).toContain(">Content<");
  });

  it("the script's post (enhanced=1) is answered with the link in place, with no redirect", async () => {
    const person = await newUser("share-enhanced");
    const cookie = await signInWithForm(person.email);
    const id = await uploadPicture(person.token);
    const posted = await screenPost(cookie, `/library?share=${id}`, shareFields("file", id, { enhanced: "1" }));
    expect(posted.status).toBe(201);
  });
});

describe("the account's Shared links", () => {
  it("lists a link with its views and expiry; Revoke asks first, then turns it off", async () => {
    const person = await newUser("share-revoke");
    const cookie = await signInWithForm(person.email);
    expect((await page(cookie, "/account")).html).toContain("No shared links yet.");
    const id = await uploadPicture(person.token, "Harbour.png");
    const posted = await screenPost(cookie, `/library?share=${id}`, shareFields("file", id, { expires_in_hours: "1" }));
    const shareId = new URL(posted.headers.get("location")!, baseUrl()).searchParams.get("shared")!;

    const account = (await page(cookie, "/account")).html;
    expect(account).toContain("0 views");
    expect(account).toMatch(/Expires [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(account).toContain("Harbour");

    const asked = await screenPost(cookie, "/account", { intent: "revoke-share", id: shareId });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(`/account?revoke-share=${shareId}`);
    const question = (await page(cookie, `/account?revoke-share=${shareId}`)).html;
    expect(question).toContain('role="alertdialog"');
    expect(question).toMatch(/Revoke the link to “Harbour[^”]*”\?/);
    expect((await page(cookie, "/account")).html).not.toContain("No shared links yet.");

    const revoked = await screenPost(cookie, "/account", { intent: "revoke-share", id: shareId, confirmed: "1" });
    expect(revoked.status).toBe(302);
    expect(revoked.headers.get("location")).toBe("/account");
    expect((await page(cookie, "/account")).html).toContain("No shared links yet.");
    // Already off, or another person's: said, nothing else changes.
    const again = await screenPost(cookie, "/account", { intent: "revoke-share", id: shareId, confirmed: "1" });
    expect(again.status).toBe(302);
  });
});

describe("the account's Shared links, a page at a time", () => {
  it("50 links a page, newest first: Older links goes on by cursor, Newest links back; Revoke asks about a link on any page", async () => {
    const person = await newUser("share-pages");
    const cookie = await signInWithForm(person.email);
    const id = await uploadPicture(person.token, "Paged.png");
    const made: string[] = [];
    for (let batch = 0; batch < 2; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 26 }, () => api("/api/shares", { json: { kind: "file", id }, token: person.token })),
      );
      for (const answer of answers) expect(answer.status).toBe(201);
    }
    const listed = await api("/api/shares", { token: person.token });
    made.push(...listed.body.shares.map((link: { id: string }) => link.id));
    expect(made).toHaveLength(52);

    const first = (await page(cookie, "/account")).html;
    expect(first.match(/data-testid="shared-link"/g)).toHaveLength(50);
    expect(first).toContain("Older links");
    expect(first).not.toContain("Newest links");
    const older = /href="(\/account\?shares_cursor=[\w-]+#shared-links)"/.exec(first)?.[1];
    expect(older).toBeDefined();

    const second = (await page(cookie, older!)).html;
    expect(second.match(/data-testid="shared-link"/g)).toHaveLength(2);
    expect(second).not.toContain("Older links");
    expect(second).toContain("Newest links");
    expect(second).toContain('href="/account#shared-links"');
    // The two oldest, in order; none of the first page's.
    for (const shareId of made.slice(50)) expect(second).toContain(`value="${shareId}"`);
    expect(second).not.toContain(`value="${made[0]}"`);

    // A cursor that does not read is the first page.
    expect(
      (await page(cookie, "/account?shares_cursor=garbage")).html.match(/data-testid="shared-link"/g),
    ).toHaveLength(50);
    // Without JavaScript, Revoke comes back to /account?revoke-share={id}: it asks about a link on another page too.
    const question = (await page(cookie, `/account?revoke-share=${made[51]}`)).html;
    expect(question).toContain('role="alertdialog"');
    expect(question).toMatch(/Revoke the link to “Paged[^”]*”\?/);
  });
});

describe("SHARES_MAX_PER_PERSON=1", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ SHARES_MAX_PER_PERSON: "1" });
  });
  afterAll(async () => server?.stop());

  it("the next link is a 409 the panel says in the screen's language, and nothing is made", async () => {
    const person = await newUser("share-limit", server.url);
    const cookie = await signInWithForm(person.email, server.url);
    const id = await uploadPicture(person.token, "Limit.png", server.url);
    const post = (language: string) =>
      fetch(`${server.url}/library?share=${id}`, {
        method: "POST",
        headers: { Cookie: cookie, "Accept-Language": language },
        body: new URLSearchParams(shareFields("file", id)),
        redirect: "manual",
      });
    expect((await post("en")).status).toBe(302);

    const refused = await post("en");
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain("❌ Could not create the link.");
    expect(html).toContain("One person may have at most 1 live share link: end it before making another.");
    const german = await post("de");
    expect(german.status).toBe(409);
    expect(await german.text()).toContain(
      "Eine Person kann höchstens 1 aktiven Freigabelink haben: Widerrufe ihn, bevor du einen neuen erstellst.",
    );
    const listed = await api("/api/shares", { token: person.token, server: server.url });
    expect(listed.body.shares).toHaveLength(1);
  });
});

describe("SHARING=off", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ SHARING: "off" });
  });
  afterAll(async () => server?.stop());

  it("hides every Share control and the account's section, and refuses intent=share", async () => {
    const person = await newUser("share-off", server.url);
    const cookie = await signInWithForm(person.email, server.url);
    const id = await uploadPicture(person.token, "Off.png", server.url);
    const content = await api("/api/content", {
      json: { title: "Off notes" },
      token: person.token,
      server: server.url,
    });
    await api("/api/project/create", { json: { title: "Off film" }, token: person.token, server: server.url });

    for (const path of ["/library", `/content/${content.body.id}`, "/projects"]) {
      const { status, html } = await page(cookie, path, server.url);
      expect(status, path).toBe(200);
      expect(html, path).not.toContain('data-testid="share-control"');
    }
    expect((await page(cookie, `/library?share=${id}`, server.url)).html).not.toContain("Create link");
    const account = (await page(cookie, "/account", server.url)).html;
    expect(account).toContain("Sessions");
    expect(account).not.toContain("Shared links");
    const refused = await fetch(`${server.url}/library?share=${id}`, {
      method: "POST",
      headers: { Cookie: cookie },
      body: new URLSearchParams(shareFields("file", id)),
      redirect: "manual",
    });
    expect(refused.status).toBe(404);
  });
});

describe("SHARING=off with links made before", () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.stop());

  it("keeps the account's Shared links, says sharing is off, and still revokes", async () => {
    server = await startTestServer();
    const person = await newUser("share-off-kept", server.url);
    const id = await uploadPicture(person.token, "Kept.png", server.url);
    const made = await api("/api/shares", { json: { kind: "file", id }, token: person.token, server: server.url });
    expect(made.status).toBe(201);
    const dataDir = server.dataDir;
    await server.stop();
    server = await startTestServer({ DATA_DIR: dataDir, SHARING: "off" });

    const cookie = await signInWithForm(person.email, server.url);
    const account = (await page(cookie, "/account", server.url)).html;
    expect(account).toContain("Shared links");
    expect(account).toContain("Sharing is turned off on this server");
    expect(account).toContain("Kept.png");
    const revoked = await fetch(`${server.url}/account`, {
      method: "POST",
      headers: { Cookie: cookie },
      body: new URLSearchParams({ intent: "revoke-share", id: made.body.id, confirmed: "1" }),
      redirect: "manual",
    });
    expect(revoked.status).toBe(302);
    expect((await api("/api/shares", { token: person.token, server: server.url })).body.shares).toEqual([]);
    expect((await page(cookie, "/account", server.url)).html).not.toContain("Shared links");
  });
});
