import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "./client";

// The server build remembers React Router's route matches per path and hands out copies (issue 13;
// vite.config.ts `rememberRouteMatches`), and writes the inline route manifest compactly
// (`compactRouteManifest`). What must hold: the same path with other params, and other paths of the
// same route, are answered for what they name; a copy's params are never another request's.

const serverBuild = path.resolve(process.env.BUILD_DIR || "build", "server/index.js");

describe("route matching in the server build", () => {
  it("carries the React Router transforms (a React Router release that words them otherwise fails here, not silently)", () => {
    const code = fs.readFileSync(serverBuild, "utf8");
    expect(code).toContain("function matchRoutesImplEachTime(");
    expect(code).toContain("studioMatchesByBranches");
    expect(code).toContain("JSON.stringify(getPartialManifest(manifest, router), function studioCompactManifest(");
    expect(code).toContain("JSON.stringify(serverHandoff, function studioCompactHandoff(");
  });

  it("writes each document's links, manifest and settings without what the browser does not read", async () => {
    const html = await (await fetch(`${baseUrl()}/login`)).text();
    const nonce = /<script nonce="([^"]+)"/.exec(html)?.[1];
    expect(nonce, "inline scripts keep the nonce").toBeTruthy();
    // The policy allows our own origin's scripts and styles: links need no nonce (vite.config.ts noNonceOnLinks).
    const links = html.match(/<link [^>]*>/g) ?? [];
    expect(links.filter((link) => link.includes('rel="modulepreload"')).length).toBeGreaterThan(2);
    for (const link of links) expect(link).not.toContain("nonce");
    const inlineScripts = html.match(/<script[^>]*>/g) ?? [];
    for (const script of inlineScripts) expect(script).toContain(`nonce="${nonce}"`);
    // The manifest: no false flags, no empty stylesheet lists, the entry's imports once.
    const manifest = JSON.parse(/window\.__reactRouterManifest = (\{.*?\});\n/.exec(html)![1]);
    expect(manifest.entry.imports.length).toBeGreaterThan(0);
    expect(Object.keys(manifest.routes)).toContain("routes/login");
    for (const route of Object.values<Record<string, unknown>>(manifest.routes)) {
      expect(Object.values(route)).not.toContain(false);
      expect(route.css ?? ["kept"]).not.toEqual([]);
      for (const href of (route.imports as string[] | undefined) ?? []) expect(manifest.entry.imports).not.toContain(href);
    }
    expect(manifest.routes.root).toMatchObject({ hasLoader: true, hasDefaultExport: true, hasErrorBoundary: true });
    // The settings: only what is on (absent is off).
    const handoff = JSON.parse(/window\.__reactRouterContext = (\{.*?\});/.exec(html)![1]);
    expect(handoff.future).toMatchObject({ v8_middleware: true, v8_passThroughRequests: true });
    expect(JSON.stringify(handoff)).not.toContain("false");
  });

  it("answers each item of one route by its own id, again and again, in any order", async () => {
    const user = await newUser("route-matches");
    const ids: string[] = [];
    for (const title of ["First", "Second", "Third"]) {
      const created = await api("/api/content", { token: user.token, json: { title } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    for (const round of [0, 1, 2]) {
      for (const [index, id] of [...ids.entries()].sort(() => (round % 2 ? -1 : 1))) {
        const item = await api(`/api/content/${id}`, { token: user.token });
        expect(item.status).toBe(200);
        expect(item.body.title).toBe(["First", "Second", "Third"][index]);
      }
    }
    // Two routes under one prefix, same id: each its own answer.
    const pinned = await api(`/api/content/${ids[1]}/pin`, { method: "POST", token: user.token, json: { pinned: true } });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ id: ids[1], pinned: true });
    expect((await api(`/api/content/${ids[1]}`, { token: user.token })).body.pinned).toBe(true);
    expect((await api("/api/content/not-an-item", { token: user.token })).status).toBe(404);
  });

  it("matches pages, their data requests and unknown paths the same after they were remembered", async () => {
    const user = await newUser("route-pages");
    const cookie = await signInWithForm(user.email);
    const created = await api("/api/content", { token: user.token, json: { title: "Page item", body: "Shown on its page" } });
    for (let i = 0; i < 3; i++) {
      const page = await fetch(`${baseUrl()}/content/${created.body.id}`, { headers: { Cookie: cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Shown on its page");
      const data = await fetch(`${baseUrl()}/content/${created.body.id}.data`, { headers: { Cookie: cookie } });
      expect(data.status).toBe(200);
      expect(await data.text()).toContain("Shown on its page");
      expect((await fetch(`${baseUrl()}/no-such-page-${i % 2}`)).status).toBe(404);
    }
  });
});
