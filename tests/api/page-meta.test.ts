import { describe, expect, it } from "vitest";
import { baseUrl, newUser, signInWithForm } from "./client";

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
    const descriptions = new Set(await Promise.all(["/", "/login", "/register"].map(async (path) => description(await (await fetch(baseUrl() + path)).text()))));
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
