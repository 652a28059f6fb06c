import { describe, expect, it } from "vitest";
import { isSharePath, maskSharePaths, routerPathOf } from "~/common/sharing/share-path";

// A share link's path as the router reads it (app/common/sharing/share-path.ts): every way of writing
// /s/{token} that reaches the shared page is a share path, and its token is masked in any text.
const T = "Zk3q9V_x-2mP0aLr8sT1uW4yB6cD5eF7";

/** Each way of writing the shared page's path that the URL parser and React Router read as /s/T. */
const SHARED_PAGE = [
  `/s/${T}`,
  `/s/${T}.data`,
  `/x/../s/${T}`,
  `/%2e/s/${T}`,
  `/%2E/s/${T}`,
  `/s/./${T}`,
  `/%53/${T}`,
  `/%73/${T}`,
  `/S/${T}`,
  `//s//${T}`,
  `/s\\${T}`,
  `/a/b/../../s/${T}`,
  `/s/%2e/${T}`,
  `/%2573/${T}`,
  `/s%2F${T}`,
];

describe("routerPathOf: the path React Router matches", () => {
  it("resolves dot segments (%2e too) and backslashes as the URL parser does", () => {
    expect(routerPathOf(`/x/../s/${T}`)).toBe(`/s/${T}`);
    expect(routerPathOf(`/%2e/s/${T}`)).toBe(`/s/${T}`);
    expect(routerPathOf(`/s/./${T}`)).toBe(`/s/${T}`);
    expect(routerPathOf(`/s\\${T}`)).toBe(`/s/${T}`);
    expect(routerPathOf("/a/b/../../c")).toBe("/c");
  });

  it("decodes each segment, keeping an encoded slash as %2F, and keeps one that does not decode", () => {
    expect(routerPathOf(`/%53/${T}`)).toBe(`/S/${T}`);
    expect(routerPathOf(`/%73/${T}`)).toBe(`/s/${T}`);
    expect(routerPathOf(`/s%2F${T}`)).toBe(`/s%2F${T}`);
    expect(routerPathOf("/caf%C3%A9/%E0%A4%A/x")).toBe("/café/%E0%A4%A/x");
  });

  it("keeps repeated slashes (the request's URL is the origin plus the path, never resolved against it)", () => {
    expect(routerPathOf(`//s//${T}`)).toBe(`//s//${T}`);
    expect(routerPathOf("/")).toBe("/");
  });
});

describe("isSharePath", () => {
  it("is true for every way of writing the shared page's path, and its files", () => {
    for (const path of SHARED_PAGE) expect(isSharePath(path), path).toBe(true);
    expect(isSharePath(`/s/${T}/`)).toBe(true);
    expect(isSharePath(`/s/${T}/file/f1`)).toBe(true);
    expect(isSharePath(`/x/../S/${T}/file/f1`)).toBe(true);
  });

  it("is false for other paths", () => {
    for (const path of [
      "/",
      "/s",
      "/s/",
      "//s//",
      "/dashboard",
      "/static/voices/s/x",
      "/settings/abc",
      "/api/shares/abc",
      "/ss/x",
      "/x/s/y",
      "/s../x",
    ])
      expect(isSharePath(path), path).toBe(false);
  });
});

describe("maskSharePaths", () => {
  it("turns each variant into /s/***, whole token segment included", () => {
    for (const path of SHARED_PAGE) expect(maskSharePaths(path), path).toBe("/s/***");
  });

  it("keeps what follows the token, and the token again in it", () => {
    expect(maskSharePaths(`/s/${T}/file/0c5b-file-id`)).toBe("/s/***/file/0c5b-file-id");
    expect(maskSharePaths(`/x/../s/${T}/file/f1`)).toBe("/s/***/file/f1");
    expect(maskSharePaths(`//s//${T}/file/x`)).toBe("/s/***/file/x");
    expect(maskSharePaths(`/s/${T}/`)).toBe("/s/***/");
    expect(maskSharePaths(`/s/${T}/file/${T}`)).toBe("/s/***/file/***");
    // A path that leaves the link again (`/s/T/..`) still named the token.
    expect(maskSharePaths(`/s/${T}/../x`)).not.toContain(T);
  });

  it("masks share paths inside text, with or without an origin, and leaves the rest of the text", () => {
    const text = [
      `Error: You made a POST request to "/s/${T}" but did not provide an \`action\` for route "routes/shared"`,
      `GET https://studio.example/s/${T}/file/f1 failed`,
      `see http://127.0.0.1:3000/%53/${T}.data?x=1 and '/x/../s/${T}'`,
      `<a href="/s/${T}">open</a>`,
    ].join("\n");
    const masked = maskSharePaths(text);
    expect(masked).not.toContain(T);
    expect(masked).toContain('a POST request to "/s/***" but did not provide an `action` for route "routes/shared"');
    expect(masked).toContain("GET https://studio.example/s/***/file/f1 failed");
    expect(masked).toContain("see http://127.0.0.1:3000/s/***?x=1 and '/s/***'");
    expect(masked).toContain('<a href="/s/***">open</a>');
  });

  it("errs on the side of masking: a run that merely starts like a share path is masked too", () => {
    expect(maskSharePaths("3 requests/s/instance")).toBe("3 requests/s/***");
  });

  it("leaves text without a share path as it is", () => {
    for (const text of [
      "[studio] Creative AI Studio is running at http://127.0.0.1:3000",
      "    at file:///srv/studio/build/server/index.js:120:7",
      "GET /api/shares/abc 200 1.2 ms 300 B",
      "no slash at all",
    ])
      expect(maskSharePaths(text)).toBe(text);
  });
});
