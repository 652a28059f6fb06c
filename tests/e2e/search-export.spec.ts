import fs from "node:fs";
import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * Decision 0019: the dashboard's search box and the export buttons, in Chromium. Without JavaScript the
 * search is a plain GET form and the exports plain download links; with it, the same form searches
 * in the page.
 */
async function seed(page: Page, items: { title: string; body?: string }[]) {
  for (const item of items) {
    expect(
      (await page.request.post("/api/content", { data: { title: item.title, body: item.body ?? "" } })).status(),
    ).toBe(201);
  }
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the dashboard's search box finds by title and body, says when nothing matches, and clears", async ({
    page,
  }) => {
    await signUpAndLogIn(page, "nojs-search");
    await seed(page, [
      { title: "Robots at dawn", body: "machines waking" },
      { title: "Garden notes", body: "the robotic mower hums" },
      { title: "Shopping list", body: "milk and eggs" },
    ]);
    await page.goto("/dashboard");
    const list = page.getByRole("list", { name: "Content items" });
    await expect(list.getByRole("listitem")).toHaveCount(3);

    const search = page.getByRole("searchbox", { name: "Search your content" });
    await search.fill("robo");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\?q=robo#content$/);
    await expect(list.getByRole("link")).toHaveText(["Garden notes", "Robots at dawn"]);
    await expect(page.getByText("2 items match “robo”")).toBeVisible();
    await expect(search).toHaveValue("robo");

    // The body counts too; pinning from the results comes back to them.
    await search.fill("milk");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(list.getByRole("link")).toHaveText(["Shopping list"]);
    await page.getByRole("button", { name: "Pin Shopping list" }).click();
    await expect(page).toHaveURL(/\/dashboard\?q=milk/);
    await expect(page.getByRole("button", { name: "Unpin Shopping list" })).toBeVisible();
    await expect(list.getByRole("link")).toHaveText(["Shopping list"]);

    await search.fill("zebra");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("No results for “zebra”.")).toBeVisible();
    await expect(list).toBeHidden();
    await page.getByRole("link", { name: "Clear search" }).first().click();
    await expect(page).toHaveURL(/\/dashboard#content$/);
    await expect(list.getByRole("listitem")).toHaveCount(3);
    await expect(search).toHaveValue("");
  });

  test("Export my data and Export project are plain downloads", async ({ page }) => {
    await signUpAndLogIn(page, "nojs-export");
    await seed(page, [{ title: "Exported note", body: "hello" }]);
    const created = await page.request.post("/api/project/create", { data: { title: "Film", description: "A short" } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();

    await page.goto("/dashboard");
    const accountDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export my data" }).click();
    const account = await accountDownload;
    expect(account.suggestedFilename()).toMatch(/^creative-ai-studio-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const accountBytes = fs.readFileSync((await account.path())!);
    expect(accountBytes.subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");
    expect(accountBytes.includes(Buffer.from("content/Exported note.md"))).toBe(true);

    await page.goto(`/project/${id}`);
    const projectDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export project" }).click();
    const project = await projectDownload;
    expect(project.suggestedFilename()).toBe("Film.zip");
    expect(fs.readFileSync((await project.path())!).includes(Buffer.from("project.json"))).toBe(true);

    // A new project has nothing saved to export yet.
    await page.goto("/project/new");
    await expect(page.getByRole("link", { name: "Export project" })).toHaveCount(0);
  });
});

test.describe("with JavaScript on", () => {
  test("the search form searches in the page and keeps the query in the URL", async ({ page }) => {
    await signUpAndLogIn(page, "js-search");
    await seed(page, [{ title: "Alpha robots" }, { title: "Beta gardens" }]);
    await page.goto("/dashboard");
    const list = page.getByRole("list", { name: "Content items" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    const search = page.getByRole("searchbox", { name: "Search your content" });
    await search.fill("garden");
    await search.press("Enter");
    await expect(page).toHaveURL(/\/dashboard\?q=garden/);
    await expect(list.getByRole("link")).toHaveText(["Beta gardens"]);
    await page.getByRole("link", { name: "Clear search" }).click();
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(search).toHaveValue("");
  });
});
