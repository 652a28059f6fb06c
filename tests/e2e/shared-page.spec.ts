import AxeBuilder from "@axe-core/playwright";
import sharp from "sharp";
import { expect, request as playwrightRequest, test, type Page } from "../support/e2e-test";
import { webmBytes } from "../support/media";
import { PASSWORD, uniqueEmail } from "../support/e2e-session";

/**
 * The shared page (docs/screens.md#shared-page) as a signed-out visitor's browser sees it, with
 * JavaScript on and off, at both sizes: a text, a picture and a project, axe finding nothing in either
 * theme, no script and no CSP refusal on the page, and the 410 page once a link is revoked.
 */

const WCAG_AND_BEST_PRACTICE = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const GONE = "This link has expired or was turned off.";
const BODY = "First line\n<script>alert('x')</script>\nLast line";

interface Links {
  text: string;
  image: string;
  project: string;
}

/** An owner with a text, a picture and a project (picture and clip), each shared; the links' paths. */
async function shareThings(baseURL: string): Promise<Links> {
  const owner = await playwrightRequest.newContext({ baseURL });
  const email = uniqueEmail("sharer");
  expect((await owner.post("/api/auth/register", { data: { email, password: PASSWORD } })).status()).toBe(201);
  expect((await owner.post("/login", { form: { email, password: PASSWORD }, maxRedirects: 0 })).status()).toBe(302);
  const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 140, b: 220 } } })
    .png()
    .toBuffer();
  const upload = async (name: string, mimeType: string, buffer: Buffer, kind: string) => {
    const saved = await owner.post("/api/library/upload", {
      multipart: { kind, file: { name, mimeType, buffer } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    return ((await saved.json()) as { id: string }).id;
  };
  const content = await owner.post("/api/content", { data: { title: "Harbour notes", body: BODY } });
  expect(content.status()).toBe(201);
  const imageId = await upload("harbour.png", "image/png", png, "photo");
  const clipId = await upload("waves.webm", "video/webm", webmBytes(), "clip");
  const project = await owner.post("/api/project/create", {
    data: { title: "Short film", description: "A minute about the sea.", image_file: imageId, video_file: clipId },
  });
  expect(project.status()).toBe(201);
  const share = async (kind: string, id: string) => {
    const made = await owner.post("/api/shares", { data: { kind, id } });
    expect(made.status(), await made.text()).toBe(201);
    return new URL(((await made.json()) as { url: string }).url).pathname;
  };
  const links = {
    text: await share("content", ((await content.json()) as { id: string }).id),
    image: await share("file", imageId),
    project: await share("project", ((await project.json()) as { id: string }).id),
  };
  await owner.dispose();
  return links;
}

/** An owner's link to a picture, revoked: its path. */
async function revokedLink(baseURL: string): Promise<string> {
  const owner = await playwrightRequest.newContext({ baseURL });
  const email = uniqueEmail("revoker");
  expect((await owner.post("/api/auth/register", { data: { email, password: PASSWORD } })).status()).toBe(201);
  expect((await owner.post("/login", { form: { email, password: PASSWORD }, maxRedirects: 0 })).status()).toBe(302);
  const content = await owner.post("/api/content", { data: { title: "Soon gone", body: "bye" } });
  const made = await owner.post("/api/shares", {
    data: { kind: "content", id: ((await content.json()) as { id: string }).id },
  });
  const { id, url } = (await made.json()) as { id: string; url: string };
  expect((await owner.delete(`/api/shares/${id}`)).status()).toBeLessThan(300);
  await owner.dispose();
  return new URL(url).pathname;
}

/**
 * No script element, no CSP refusal, nothing scrolling sideways, and axe clean, in both themes. axe's scan
 * runs in the page's own script world, so only where JavaScript is on; the page renders no script either way, so its markup
 * is the same without it.
 */
async function checkPage(page: Page, path: string, refusals: string[], axe: boolean) {
  for (const theme of ["dark", "light"] as const) {
    const chosen = await page.request.post("/preferences", {
      form: { intent: "theme", theme, redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(chosen.status()).toBe(302);
    await page.goto(path);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expect(page.locator("script")).toHaveCount(0);
    const results = axe ? await new AxeBuilder({ page }).withTags(WCAG_AND_BEST_PRACTICE).analyze() : null;
    expect(
      results?.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`,
      ),
      `axe on ${path} (${theme})`,
    ).toEqual(axe ? [] : undefined);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
  }
  expect(refusals, "CSP refusals").toEqual([]);
}

/** Whether the <img> matched by `locator` has loaded its picture. */
const imageLoaded = (page: Page, selector: string) =>
  expect
    .poll(() => page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);

let links: Links;
let revoked: string;
test.beforeAll(async ({ baseURL }) => {
  links = await shareThings(baseURL!);
  revoked = await revokedLink(baseURL!);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`${viewport.width}x${viewport.height}, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ viewport, javaScriptEnabled });
      let refusals: string[];
      test.beforeEach(({ page }) => {
        refusals = [];
        page.on("console", (message) => {
          if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
        });
      });

      test("a signed-out visitor reads a shared text, as text", async ({ page }) => {
        const answer = await page.goto(links.text);
        expect(answer?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1, name: "Harbour notes" })).toBeVisible();
        await expect(page.getByText("<script>alert('x')</script>")).toBeVisible();
        await expect(page.getByRole("link", { name: "Made with Creative AI Studio" })).toHaveAttribute("href", "/");
        await expect(page.getByRole("navigation")).toHaveCount(0);
        // The line breaks are kept: three lines, one above the other.
        const box = await page.locator(".shared-text").boundingBox();
        const lineHeight = await page
          .locator(".shared-text")
          .evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
        expect(box!.height).toBeGreaterThanOrEqual(lineHeight * 3 - 1);
        await checkPage(page, links.text, refusals, javaScriptEnabled);
      });

      test("a signed-out visitor sees a shared picture and can download it", async ({ page }) => {
        expect((await page.goto(links.image))?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1, name: "harbour.png" })).toBeVisible();
        await imageLoaded(page, "img.shared-image");
        const download = page.getByRole("link", { name: "Download harbour.png" });
        await expect(download).toBeVisible();
        const saved = await page.request.get((await download.getAttribute("href"))!);
        expect(saved.status()).toBe(200);
        expect(saved.headers()["content-disposition"]).toMatch(/^attachment; filename="harbour.png"/);
        await checkPage(page, links.image, refusals, javaScriptEnabled);
      });

      test("a signed-out visitor sees a shared project: title, description, picture and player", async ({ page }) => {
        expect((await page.goto(links.project))?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1, name: "Short film" })).toBeVisible();
        await expect(page.getByText("A minute about the sea.")).toBeVisible();
        await expect(page.getByRole("heading", { level: 2, name: "Image" })).toBeVisible();
        await imageLoaded(page, "img.shared-image");
        await expect(page.locator("video.shared-player")).toHaveAttribute("controls", "");
        await expect(page.getByRole("link", { name: /^Download/ })).toHaveCount(2);
        await checkPage(page, links.project, refusals, javaScriptEnabled);
      });

      test("a revoked link shows the 410 page in the studio's look", async ({ page }) => {
        expect((await page.goto(revoked))?.status()).toBe(410);
        await expect(page.getByRole("heading", { level: 1, name: GONE })).toBeVisible();
        await expect(page.getByRole("link", { name: "Return Home" })).toBeVisible();
        await checkPage(page, revoked, refusals, javaScriptEnabled);
      });
    });
  }
}
