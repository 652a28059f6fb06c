import { expect, test, type Page } from "../support/e2e-test";
import { PNG_BYTES } from "../support/media";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * The screens page by cursor (docs/decisions/0076-paging-by-cursor.md): the dashboard's and the
 * library's Next link carries the cursor of its page's last row, so following Next to the end shows
 * every item exactly once, in the list's order; Previous goes back by the page's number. Plain links:
 * the same with JavaScript off.
 */
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
];

const rows = (page: Page) => page.getByRole("list", { name: "Content items" }).locator("li a[id]");

/** The titles of the dashboard's rows on the page shown. */
const dashboardTitles = (page: Page) => rows(page).allTextContents();

const libraryNames = async (page: Page) =>
  (await page.getByTestId("library-item").allTextContents()).map((text) => text.match(/shot \d+\.png/)?.[0] ?? text);

for (const javaScriptEnabled of [false, true]) {
  for (const viewport of VIEWPORTS) {
    const where = `JavaScript ${javaScriptEnabled ? "on" : "off"}, ${viewport.width}x${viewport.height}`;
    test.describe(`cursor paging on the screens (${where})`, () => {
      test.use({ javaScriptEnabled, viewport });

      test("the dashboard's Next walks every piece once; Previous goes back", async ({ page }) => {
        await signUpAndLogIn(page, "cursor-dashboard");
        const count = 205;
        for (let i = 1; i <= count; i++) {
          const made = await page.request.post("/api/content", {
            data: { title: `piece ${String(i).padStart(3, "0")}` },
          });
          expect(made.status()).toBe(201);
        }
        const all = (await (await page.request.get("/api/content?limit=500")).json()) as { title: string }[];
        await page.goto("/dashboard");
        const seen: string[] = [];
        const firstPage = await dashboardTitles(page);
        seen.push(...firstPage);
        for (let pageNumber = 2; ; pageNumber++) {
          const next = page.getByRole("link", { name: "Next page →" });
          if ((await next.count()) === 0) break;
          // The first row of the page on screen: with JavaScript the list is replaced in place, so the
          // new page is there once its first row is another.
          const before = (await rows(page).first().textContent())!;
          await next.click();
          await expect(page).toHaveURL(new RegExp(`page=${pageNumber}&cursor=[\\w-]+`));
          await expect(rows(page).first()).not.toHaveText(before);
          seen.push(...(await dashboardTitles(page)));
        }
        expect(seen).toEqual(all.map((item) => item.title));
        expect(new Set(seen).size).toBe(count);
        await page.getByRole("link", { name: "← Previous page" }).click();
        await expect(page).toHaveURL(/page=2(?!.*cursor)/);
        await expect(rows(page).first()).toHaveText(seen[100]!);
        expect(await dashboardTitles(page)).toEqual(seen.slice(100, 200));
      });

      test("the library's Next walks every file once; Previous goes back", async ({ page }) => {
        await signUpAndLogIn(page, "cursor-library");
        for (let i = 1; i <= 50; i++) {
          const saved = await page.request.post("/api/library/upload", {
            multipart: {
              kind: "photo",
              file: { name: `shot ${String(i).padStart(2, "0")}.png`, mimeType: "image/png", buffer: PNG_BYTES },
            },
          });
          expect(saved.status()).toBe(201);
        }
        await page.goto("/library?kind=photo&sort=date");
        const seen = await libraryNames(page);
        for (let pageNumber = 2; ; pageNumber++) {
          const next = page.getByRole("link", { name: "Next →" });
          if ((await next.count()) === 0) break;
          const before = (await page.getByTestId("library-item").first().textContent()) ?? "";
          await next.click();
          await expect(page).toHaveURL(new RegExp(`page=${pageNumber}&cursor=[\\w-]+`));
          await expect(page.getByTestId("library-item").first()).not.toHaveText(before);
          seen.push(...(await libraryNames(page)));
        }
        expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `shot ${String(i + 1).padStart(2, "0")}.png`));
        await page.getByRole("link", { name: "← Previous" }).click();
        await expect(page).toHaveURL(/page=2(?!.*cursor)/);
        await expect(page.getByTestId("library-item").first()).toContainText(seen[24]!);
        expect(await libraryNames(page)).toEqual(seen.slice(24, 48));
      });
    });
  }
}
