import { describe, expect, it } from "vitest";
import { baseUrl, newUser, signInWithForm } from "../support/api";

/** The description a page's HTML gives search engines and link previews (Lighthouse's SEO audit). */
function description(html: string): string | null {
  return /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? null;
}

describe("pages describe themselves", () => {
  it.each(["/", "/login", "/register"])("%s has a meta description of its own", async (path) => {
    const html = await (await fetch(baseUrl() + path)).text();
    expect(description(html)?.length ?? 0).toBeGreaterThan(30);
  });

  it("/dashboard (signed in) has one too, and the Edit mode link claims no pressed state (it is a link)", async () => {
    const user = await newUser("meta");
    const cookie = await signInWithForm(user.email);
    const html = await (await fetch(`${baseUrl()}/dashboard`, { headers: { cookie } })).text();
    expect(description(html)?.length ?? 0).toBeGreaterThan(30);
    const descriptions = new Set(
      await Promise.all(
        ["/", "/login", "/register"].map(async (path) => description(await (await fetch(baseUrl() + path)).text())),
      ),
    );
    descriptions.add(description(html));
    expect(descriptions.size, "each page's description is its own").toBe(4);
    const editLink = /<a[^>]*href="\/dashboard\?edit=1"[^>]*>/.exec(html)?.[0];
    expect(editLink).toBeTruthy();
    expect(editLink).not.toContain("aria-pressed");
    // A skip link comes first, to the content list; the page's own part is the <main> landmark,
    // with the "Signed in as" line inside it.
    expect(html.indexOf('class="skip-link" href="#content"')).toBeLessThan(html.indexOf("<header"));
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(main).toContain("Signed in as");
    expect(main).toContain('id="content"');
  });
});

describe("the text's font is preloaded with every page", () => {
  it.each(["/", "/login", "/no-such-page"])(
    "%s names the Latin Inter file in a Link header, and that file is served",
    async (path) => {
      const response = await fetch(baseUrl() + path);
      const link = response.headers.get("link") ?? "";
      const match =
        /<(\/assets\/inter-latin-wght-normal-[^>]+\.woff2)>; rel=preload; as=font; type="font\/woff2"; crossorigin/.exec(
          link,
        );
      expect(match, link).not.toBeNull();
      // The stylesheet's @font-face points at the same file, so the preload is used, not fetched twice.
      const html = await response.text();
      const stylesheet = /<link[^>]* rel="stylesheet"[^>]* href="([^"]+)"/.exec(html)![1];
      expect(await (await fetch(baseUrl() + stylesheet)).text()).toContain(match![1]);
      const font = await fetch(baseUrl() + match![1]);
      expect(font.status).toBe(200);
      expect(font.headers.get("content-type")).toBe("font/woff2");
    },
  );
});
