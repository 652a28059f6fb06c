import { expect, hydrated, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * The History screen of a text piece (docs/screens.md#history): its versions with why they were kept,
 * one opened as a word diff rendered on the server, and Restore; with JavaScript on and off, at both
 * sizes. With JavaScript on, the editor's Cancel after an autosave goes back by restoring a version.
 */

const ORIGINAL = "The red boat left the harbour at dawn.";
const FIRST_EDIT = "The blue boat left the harbour at dawn.";
const SECOND_EDIT = "The blue boat left the quiet harbour at noon.";

async function createPiece(page: Page, title: string, body: string) {
  const created = await page.request.post("/api/content", { data: { title, body } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Edit and Save in the editor (a plain form without JavaScript), back on the view. */
async function editAndSave(page: Page, id: string, body: string, javaScript: boolean) {
  await page.goto(`/content/${id}?edit=1`);
  if (javaScript) await hydrated(page);
  await page.getByLabel("Body").fill(body);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/content/${id}$`));
  await expect(page.locator(".content-body")).toHaveText(body);
}

const versions = (page: Page) => page.getByRole("list", { name: "Versions, newest first" }).getByRole("listitem");
const stored = async (page: Page, id: string) =>
  (await (await page.request.get(`/api/content/${id}`)).json()) as { body: string; updated_at: string };

async function historyFlow(page: Page, javaScript: boolean) {
  await signUpAndLogIn(page, "history");
  const id = await createPiece(page, "Harbour notes", ORIGINAL);
  await page.goto(`/content/${id}`);
  await expect(page.getByRole("link", { name: "History", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "History", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/content/${id}/history$`));
  await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();
  await expect(page.getByText("No versions yet. Versions are kept when you save.")).toBeVisible();

  await editAndSave(page, id, FIRST_EDIT, javaScript);
  await editAndSave(page, id, SECOND_EDIT, javaScript);
  await page.getByRole("link", { name: "History", exact: true }).click();
  await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();

  // Newest first: the second save, the first, and the text as created (kept by the first save).
  await expect(versions(page)).toHaveCount(3);
  for (const row of await versions(page).all()) {
    await expect(row.locator(".history-reason")).toHaveText("Saved");
    await expect(row.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
    await expect(row.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, .* UTC$/);
  }
  // "quiet " is 6 bytes more; "blue" is 1 more than "red"; the oldest has nothing to compare with.
  await expect(versions(page).nth(0).locator(".history-size")).toContainText("+6 B");
  await expect(versions(page).nth(1).locator(".history-size")).toContainText("+1 B");
  await expect(versions(page).nth(2).locator(".history-size")).toContainText("—");
  await expect(versions(page).nth(2).locator(".history-size")).toContainText("no size change");

  // Open the oldest: its words against the current text, rendered on the server.
  await versions(page).nth(2).getByRole("link").click();
  await expect(page).toHaveURL(/\?version=/);
  const panel = page.getByRole("region", { name: /^Version from / });
  await expect(panel).toBeVisible();
  const body = panel.getByTestId("diff-body");
  await expect(body.locator("del")).toHaveText(["[removed: red]", "[removed: dawn]"]);
  await expect(body.locator("ins")).toHaveText(["[added: blue]", "[added: quiet ]", "[added: noon]"]);
  await expect(body).toContainText("boat left the");
  // The title did not change: no word marked.
  await expect(panel.getByTestId("diff-title")).toHaveText("Harbour notes");
  await expect(panel.getByTestId("diff-title").locator("ins, del")).toHaveCount(0);

  const before = await stored(page, id);
  await panel.getByRole("button", { name: "Restore this version" }).click();
  await expect(page).toHaveURL(new RegExp(`/content/${id}$`));
  await expect(page.locator(".content-body")).toHaveText(ORIGINAL);
  await expect(page.getByText(/^Restored the version from [A-Z][a-z]{2} \d{1,2}, \d{4}, .* UTC\.$/)).toBeVisible();
  const after = await stored(page, id);
  expect(after.body).toBe(ORIGINAL);
  expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

  // The restore is kept as a version of its own, newest.
  await page.getByRole("link", { name: "History", exact: true }).click();
  await expect(versions(page)).toHaveCount(4);
  await expect(versions(page).nth(0).locator(".history-reason")).toHaveText("Restored");
  await expect(versions(page).nth(0).locator(".history-size")).toContainText("−7 B");
  // Opening the restored version: the same as the current text, nothing to restore.
  await versions(page).nth(0).getByRole("link").click();
  await expect(page.getByText("This version is the same as the current text.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Restore this version" })).toHaveCount(0);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  const size = `${viewport.width}x${viewport.height}`;

  test.describe(`with JavaScript at ${size}`, () => {
    test.use({ viewport });

    test("history: versions with their reasons, a word diff, restore", async ({ page }) => {
      await historyFlow(page, true);
    });

    test("editor: Cancel after an autosave goes back by restoring the version from the edit's start", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "history-cancel");
      const id = await createPiece(page, "Cancel note", "Where the edit began");
      await page.goto(`/content/${id}`);
      await hydrated(page);
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      await page.getByLabel("Body").fill("Autosaved, then thought better of");
      await expect(page.getByRole("status")).toHaveText("💾 Saved", { timeout: 10_000 });
      const autosaved = await stored(page, id);
      expect(autosaved.body).toBe("Autosaved, then thought better of");

      await page.getByRole("link", { name: "Cancel", exact: true }).click();
      const question = page.getByRole("alertdialog", { name: /Keep them, or go back/ });
      await question.getByRole("button", { name: "Go back to the text I began with" }).click();
      await expect(page).not.toHaveURL(/edit=1/);
      await expect(page.locator(".content-body")).toHaveText("Where the edit began");
      await expect(page.getByText(/^Restored the version from /)).toBeVisible();
      const restored = await stored(page, id);
      expect(restored.body).toBe("Where the edit began");
      expect(Date.parse(restored.updated_at)).toBeGreaterThan(Date.parse(autosaved.updated_at));

      // The history: the restore, the autosave, and the text the edit began with.
      await page.getByRole("link", { name: "History", exact: true }).click();
      await expect(versions(page).locator(".history-reason")).toHaveText(["Restored", "Autosaved", "Saved"]);

      // Editing again starts from the restored text, and a save is not refused as a conflict.
      await page.getByRole("link", { name: "Back to the text" }).click();
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      await expect(page.getByLabel("Body")).toHaveValue("Where the edit began");
      await page.getByLabel("Body").fill("Saved after going back");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page.locator(".content-body")).toHaveText("Saved after going back");
      expect((await stored(page, id)).body).toBe("Saved after going back");
    });
  });

  test.describe(`without JavaScript at ${size}`, () => {
    test.use({ viewport, javaScriptEnabled: false });

    test("history: versions with their reasons, a word diff, restore, as links and a form", async ({ page }) => {
      await historyFlow(page, false);
    });
  });
}
