import { expect, hydrated, test, type Page } from "../support/e2e-test";
import { answerAppDialog, appDialog } from "../support/app-dialog";
import { signUpAndLogIn } from "../support/e2e-session";

const contentList = (page: Page) => page.getByRole("list", { name: "Content items" });
/** The optimistic UI changes before the server answers: wait for the fetcher's post before reloading. */
const formPost = (page: Page) =>
  page.waitForResponse(
    (response) => response.request().method() === "POST" && /\/content\/[^/]+\.data/.test(response.url()),
  );
const titles = (page: Page) => contentList(page).locator("li:not([hidden]) > form > a").allTextContents();

async function createItem(page: Page, title: string, body: string) {
  await page.goto("/create");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Body").fill(body);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.waitForURL("**/dashboard");
  await expect(contentList(page).getByRole("link", { name: title })).toBeVisible();
}

test("content: create, list order, pin, view, autosave, save, conflict, delete", async ({ page }) => {
  await signUpAndLogIn(page, "content");
  await page.goto("/dashboard");
  await expect(page.getByText("No content yet. Click Create to get started!")).toBeVisible();

  // Create from the dashboard's Create tool; the newest comes first.
  // The dashboard's own Create tool (the shell's nav has one too).
  await page.getByRole("main").getByRole("link", { name: "Create", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Create Content" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Dashboard" })).toBeVisible();
  await createItem(page, "First note", "The first body");
  await createItem(page, "Second note", "");
  expect(await titles(page)).toEqual(["Second note", "First note"]);

  // Pin reorders at once (optimistic) and is kept.
  const pinned = formPost(page);
  await page.getByRole("button", { name: "Pin First note" }).click();
  await expect.poll(() => titles(page)).toEqual(["First note", "Second note"]);
  expect((await pinned).status()).toBe(200);
  await expect(page.getByRole("button", { name: "Unpin First note" })).toHaveText("★");
  await page.reload();
  expect(await titles(page)).toEqual(["First note", "Second note"]);

  // Open an item on a client navigation: "Loading..." first, then the item.
  // (The content route's own data request is slowed down; the page itself appears at once.)
  await page.route(
    (url) =>
      url.pathname.startsWith("/content/") &&
      url.pathname.endsWith(".data") &&
      (url.searchParams.get("_routes") ?? "").includes("routes/content"),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    },
  );
  await contentList(page).getByRole("link", { name: "Second note" }).click();
  await expect(page.getByText("Loading...")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Second note" })).toBeVisible();
  await expect(page.getByText("No content yet.", { exact: true })).toBeVisible();
  await page.unrouteAll();
  await page.getByRole("link", { name: "Back" }).click();
  await page.waitForURL("**/dashboard");

  await contentList(page).getByRole("link", { name: "First note" }).click();
  await expect(page.getByRole("heading", { name: "First note" })).toBeVisible();
  await expect(page.getByText("The first body")).toBeVisible();

  // Edit: autosave 3 s after the last change.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await page.getByLabel("Body").fill("Written by autosave");
  await expect(page.getByText("💾 Saved")).toBeVisible({ timeout: 8000 });
  await page.reload();
  await expect(page.getByLabel("Body")).toHaveValue("Written by autosave");

  // Save by hand.
  await page.getByLabel("Title").fill("First note, renamed");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("✅ Saved manually")).toBeVisible();
  await expect(page.getByRole("heading", { name: "First note, renamed" })).toBeVisible();
  await expect(page.getByText("Written by autosave")).toBeVisible();

  // A failing save says so and keeps the text.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await page.route("**/api/content/*", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: '{"detail":"boom"}' }),
  );
  await page.getByLabel("Body").fill("Not saved yet");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("❌ Save failed")).toBeVisible();
  await expect(page.getByLabel("Body")).toHaveValue("Not saved yet");
  // Cancel drops the unsaved text (and its pending autosave); the view shows the last saved version.
  await page.getByRole("link", { name: "Cancel", exact: true }).click();
  await expect(page.getByText("Written by autosave")).toBeVisible();
  await page.unrouteAll();

  // Someone else saves a newer version (another tab): this editor's next save is refused, its text kept.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  const id = page.url().split("/content/")[1].split("?")[0];
  const current = await page.request.get(`/api/content/${id}`);
  const newer = await page.request.put(`/api/content/${id}`, {
    data: { title: "First note, renamed", body: "From another tab", updated_at: (await current.json()).updated_at },
  });
  expect(newer.status()).toBe(200);
  await page.getByLabel("Body").fill("My text in this tab");
  await expect(page.getByText(/changed somewhere else/)).toBeVisible({ timeout: 8000 });
  await expect(page.getByLabel("Body")).toHaveValue("My text in this tab");
  expect((await (await page.request.get(`/api/content/${id}`)).json()).body).toBe("From another tab");
  await page.getByRole("button", { name: "Save my version anyway" }).click();
  await expect(page.getByText("✅ Saved manually")).toBeVisible();
  expect((await (await page.request.get(`/api/content/${id}`)).json()).body).toBe("My text in this tab");

  // Leaving the editor with unsaved changes (the browser's Back, well before the autosave) saves them.
  await page.getByLabel("Body").fill("Saved on the way out");
  await page.goBack();
  await expect(page.getByText("Saved on the way out")).toBeVisible();
  await expect(page.getByLabel("Body")).toHaveCount(0);
  expect((await (await page.request.get(`/api/content/${id}`)).json()).body).toBe("Saved on the way out");

  // Delete asks first: dismissing keeps the item, accepting removes it.
  await page.goto("/dashboard");
  // The app's dialog asks SPEC's question, with the title under it.
  await page.getByRole("button", { name: "Delete Second note" }).click();
  await expect(appDialog(page, "Delete this content?")).toContainText("Second note");
  await answerAppDialog(page, "Delete this content?", "Cancel");
  expect(await titles(page)).toEqual(["First note, renamed", "Second note"]);
  const deleted = formPost(page);
  await page.getByRole("button", { name: "Delete Second note" }).click();
  await answerAppDialog(page, "Delete this content?", "Delete");
  await expect.poll(() => titles(page)).toEqual(["First note, renamed"]);
  expect((await deleted).status()).toBe(200);
  await page.reload();
  expect(await titles(page)).toEqual(["First note, renamed"]);

  // The item was deleted elsewhere: pin and delete fail, say so, and roll back.
  expect((await page.request.delete(`/api/content/${id}`)).status()).toBe(200);
  // After the reload, the list's fetchers send the forms once React has hydrated it.
  await hydrated(page);
  await page.getByRole("button", { name: "Unpin First note, renamed" }).click();
  await expect(page.getByText("Could not update pin")).toBeVisible();
  await expect(page.getByRole("button", { name: "Unpin First note, renamed" })).toBeVisible();
  // The refused delete (404) brings the row back: the list shows what the server last sent, as before
  // the click; after a failed action (4xx) React Router loads nothing again. The toast is raised by the
  // route's clientAction, a moment before the fetcher settles and the row is shown again: poll.
  // The row's Delete is pressed from the keyboard: scrolled into view it lies under the toasts at the
  // bottom right, and Playwright's click checks what is under the pointer before it moves the pointer,
  // so the toasts never see it and do not step aside (toasts-and-motion.spec.ts covers the pointer).
  await page.getByRole("button", { name: "Delete First note, renamed" }).press("Enter");
  await answerAppDialog(page, "Delete this content?", "Delete");
  await expect(page.getByText("Failed to delete content")).toBeVisible();
  await expect.poll(() => titles(page)).toEqual(["First note, renamed"]);
  await expect(page.getByRole("button", { name: "Delete First note, renamed" })).toBeVisible();
  // A reload shows the server's list: the item is gone.
  await page.reload();
  await expect(page.getByText("No content yet. Click Create to get started!")).toBeVisible();
  expect(await titles(page)).toEqual([]);
});

test("content: Cancel after a conflict shows the newer version; a pin or delete that never reaches the server rolls back", async ({
  page,
}) => {
  await signUpAndLogIn(page, "content-conflict");
  await createItem(page, "Shared note", "Original");
  await contentList(page).getByRole("link", { name: "Shared note" }).click();
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  const id = page.url().split("/content/")[1].split("?")[0];
  const current = await (await page.request.get(`/api/content/${id}`)).json();
  expect(
    (
      await page.request.put(`/api/content/${id}`, {
        data: { title: "Shared note", body: "From elsewhere", updated_at: current.updated_at },
      })
    ).status(),
  ).toBe(200);
  await page.getByLabel("Body").fill("Mine");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/changed somewhere else/)).toBeVisible();
  await page.getByRole("link", { name: "Cancel", exact: true }).click();
  await expect(page.locator(".content-body")).toHaveText("From elsewhere");

  await page.getByRole("link", { name: "Back" }).click();
  await page.waitForURL("**/dashboard");
  await page.route(/\/content\/[^/]+\.data/, (route) =>
    route.request().method() === "POST" ? route.abort("failed") : route.continue(),
  );
  await page.getByRole("button", { name: "Pin Shared note" }).click();
  await expect(page.getByText("Could not update pin")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pin Shared note" })).toHaveText("☆");
  // From the keyboard: the pin's toast may lie over the row's Delete (see above).
  await page.getByRole("button", { name: "Delete Shared note" }).press("Enter");
  await answerAppDialog(page, "Delete this content?", "Delete");
  await expect(page.getByText("Failed to delete content")).toBeVisible();
  // The toast comes a moment before the fetcher settles and the row is shown again (see above).
  await expect.poll(() => titles(page)).toEqual(["Shared note"]);
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toHaveCount(0);
});

test("content: a refused save (409) carries the stored version, and the editor uses it without asking again", async ({
  page,
}) => {
  await signUpAndLogIn(page, "content-carried");
  await createItem(page, "Carried note", "Original");
  await contentList(page).getByRole("link", { name: "Carried note" }).click();
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  const id = page.url().split("/content/")[1].split("?")[0];
  const stored = await (await page.request.get(`/api/content/${id}`)).json();
  // The server refuses the save and names the version it holds; the editor must take that one.
  const carried = {
    ...stored,
    title: "Carried note",
    body: "The version the 409 carried",
    updated_at: "2099-01-01T00:00:00.000Z",
  };
  const reads: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname === `/api/content/${id}`)
      reads.push(request.url());
  });
  await page.route(`**/api/content/${id}`, (route) =>
    route.request().method() === "PUT"
      ? route.fulfill({
          status: 409,
          json: { detail: "This content was changed since you loaded it", current: carried },
        })
      : route.continue(),
  );
  await page.getByLabel("Body").fill("Mine");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/changed somewhere else/)).toBeVisible();
  await expect(page.getByLabel("Body")).toHaveValue("Mine");
  await page.getByRole("link", { name: "Cancel", exact: true }).click();
  await expect(page.locator(".content-body")).toHaveText("The version the 409 carried");
  expect(reads).toEqual([]);
});

test("content: a session that ends mid-edit sends the person to log in, and the draft comes back", async ({
  page,
  context,
}) => {
  const { email, password } = await signUpAndLogIn(page, "content-session");
  await createItem(page, "Long essay", "First draft");
  await contentList(page).getByRole("link", { name: "Long essay" }).click();
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await context.clearCookies();
  const warned = page.waitForEvent("console", (message) => message.type() === "warning");
  await page.getByLabel("Body").fill("Second draft, not saved anywhere yet");
  // The autosave finds no session, the refresh fails: docs/screens.md#states-and-transitions sends the person to /login.
  await page.waitForURL(/\/login\?redirectTo=/, { timeout: 10_000 });
  expect((await warned).text()).toContain("session refresh failed");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(/\/content\/[^/]+\?edit=1$/);
  await expect(page.getByText("↩️ Your unsaved changes were restored.")).toBeVisible();
  await expect(page.getByLabel("Body")).toHaveValue("Second draft, not saved anywhere yet");
  // And the autosave now saves it.
  await expect(page.getByText("💾 Saved")).toBeVisible({ timeout: 8000 });
  const id = page.url().split("/content/")[1].split("?")[0];
  expect((await (await page.request.get(`/api/content/${id}`)).json()).body).toBe(
    "Second draft, not saved anywhere yet",
  );
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`content: Cancel says what it does; after an autosave it asks whether to keep it or go back to the text the edit began with at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "content-cancel");
    await createItem(page, "Cancel note", "The beginning");
    await contentList(page).getByRole("link", { name: "Cancel note" }).click();
    await page.waitForURL(/\/content\/[^/?]+$/);
    const id = page.url().split("/content/")[1].split("?")[0];
    const stored = async () => (await (await page.request.get(`/api/content/${id}`)).json()).body;
    const cancel = page.getByRole("link", { name: "Cancel", exact: true });
    const question = page.getByRole("alertdialog", { name: /Keep them, or go back/ });

    // Nothing autosaved yet: Cancel drops the typing and says so.
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(cancel).toHaveAccessibleDescription("Cancel leaves without saving.");
    await page.getByLabel("Body").fill("Typed, never saved");
    await cancel.click();
    await expect(page.locator(".content-body")).toHaveText("The beginning");
    expect(await stored()).toBe("The beginning");

    // Autosaved: Cancel asks. Keep: the autosaved text stays.
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await page.getByLabel("Body").fill("Autosaved middle");
    await expect(page.getByRole("status")).toHaveText("💾 Saved", { timeout: 8000 });
    await expect(cancel).toHaveAccessibleDescription(
      "Autosave has saved part of this edit: Cancel asks whether to keep it.",
    );
    await cancel.click();
    await expect(question).toBeVisible();
    await expect(page).toHaveURL(/\?edit=1$/);
    await question.getByRole("button", { name: "Keep editing" }).click();
    await expect(question).toHaveCount(0);
    await cancel.click();
    await question.getByRole("link", { name: "Keep the autosaved text" }).click();
    await expect(page.locator(".content-body")).toHaveText("Autosaved middle");
    expect(await stored()).toBe("Autosaved middle");

    // Autosaved twice: go back restores the text this edit began with (not the first autosave's).
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(cancel).toHaveAccessibleDescription("Cancel leaves without saving.");
    await page.getByLabel("Body").fill("Second edit, autosaved");
    await expect(page.getByRole("status")).toHaveText("💾 Saved", { timeout: 8000 });
    await page.getByLabel("Body").fill("Second edit, autosaved again");
    await expect(page.getByRole("status")).toHaveText("💾 Saved", { timeout: 8000 });
    await cancel.click();
    await question.getByRole("button", { name: "Go back to the text I began with" }).click();
    await expect(page).not.toHaveURL(/edit=1/);
    await expect(page.locator(".content-body")).toHaveText("Autosaved middle");
    expect(await stored()).toBe("Autosaved middle");
  });
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`content editor at ${viewport.width}px: one status line (Unsaved changes, Saving…, 💾 Saved) that moves nothing; errors go once fixed and with Cancel; Ctrl/Cmd+S saves`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "content-status");
    await createItem(page, "Status note", "Start");
    await contentList(page).getByRole("link", { name: "Status note" }).click();
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    const id = page.url().split("/content/")[1].split("?")[0];
    const save = page.getByRole("button", { name: "Save", exact: true });
    const saveTop = async () => (await save.boundingBox())!.y;
    const top = await saveTop();
    // Autosaves answer a little late, so "Saving…" is seen.
    await page.route("**/api/content/*/autosave", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });

    await page.getByLabel("Body").fill("Typed");
    await expect(page.getByRole("status")).toHaveText("Unsaved changes");
    expect(await saveTop()).toBe(top);
    await expect(page.getByRole("status")).toHaveText("Saving…", { timeout: 6000 });
    expect(await saveTop()).toBe(top);
    await expect(page.getByRole("status")).toHaveText("💾 Saved");
    expect(await saveTop()).toBe(top);

    // "⚠️ Title is required" goes once there is a title again.
    await page.getByLabel("Title").fill("");
    await expect(page.getByRole("alert")).toHaveText("⚠️ Title is required", { timeout: 6000 });
    expect(await saveTop()).toBe(top);
    await page.getByLabel("Title").fill("Status note, renamed");
    await expect(page.getByText("⚠️ Title is required")).toHaveCount(0);
    await expect(page.getByRole("status")).toHaveText("💾 Saved", { timeout: 6000 });

    // Ctrl+S (Cmd+S on a Mac) saves by hand and stays in the editor.
    await page.getByLabel("Body").fill("Saved with the keyboard");
    await page.getByLabel("Body").press("Control+s");
    await expect(page.getByRole("status")).toHaveText("✅ Saved manually");
    await expect(page).toHaveURL(/\?edit=1$/);
    expect((await (await page.request.get(`/api/content/${id}`)).json()).body).toBe("Saved with the keyboard");
    await page.getByLabel("Body").fill("Saved with Cmd+S");
    await page.getByLabel("Title").press("Meta+s");
    await expect(page.getByRole("status")).toHaveText("✅ Saved manually");
    expect((await (await page.request.get(`/api/content/${id}`)).json()).body).toBe("Saved with Cmd+S");

    // An error of the edit does not follow Cancel back to the view.
    await page.getByLabel("Title").fill("");
    await page.getByLabel("Title").press("Control+s");
    await expect(page.getByRole("alert")).toHaveText("⚠️ Title is required");
    // This edit autosaved, so Cancel asks first (see the test above).
    await page.getByRole("link", { name: "Cancel", exact: true }).click();
    await page.getByRole("link", { name: "Keep the autosaved text" }).click();
    await expect(page.getByRole("heading", { name: "Status note, renamed" })).toBeVisible();
    await expect(page.getByText("⚠️ Title is required")).toHaveCount(0);
  });
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("content: create, pin, edit and save, delete as plain forms", async ({ page }) => {
    await signUpAndLogIn(page, "content-nojs");
    await page.goto("/create");
    // The server checks the title too (the browser's `required` is bypassed here).
    await page.getByLabel("Title").evaluate((input: HTMLInputElement) => (input.required = false));
    await page.getByLabel("Title").fill("   ");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect(page.getByText("⚠️ Error creating content. Please try again.")).toBeVisible();
    await expect(page.getByText("Title is required")).toBeVisible();

    await createItem(page, "Plain one", "Body one");
    await expect(page.getByText("Content created")).toBeVisible();
    await createItem(page, "Plain two", "Body two");
    expect(await titles(page)).toEqual(["Plain two", "Plain one"]);

    await page.getByRole("button", { name: "Pin Plain one" }).click();
    await page.waitForURL("**/dashboard");
    expect(await titles(page)).toEqual(["Plain one", "Plain two"]);

    await contentList(page).getByRole("link", { name: "Plain one" }).click();
    await expect(page.getByRole("heading", { name: "Plain one" })).toBeVisible();
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(page).toHaveURL(/\?edit=1$/);
    await page.getByLabel("Title").fill("Plain one, edited");
    await page.getByLabel("Body").fill("Line 1\nLine 2");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("✅ Saved manually")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Plain one, edited" })).toBeVisible();
    await expect(page.locator(".content-body")).toHaveText("Line 1\nLine 2");

    // Cancel is a link back to the view.
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await page.getByRole("link", { name: "Cancel", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Plain one, edited" })).toBeVisible();

    // Delete asks first (docs/screens.md#error-messages), also without JavaScript: Cancel keeps the item, Delete removes it.
    await page.getByRole("link", { name: "Back" }).click();
    await page.getByRole("button", { name: "Delete Plain two" }).click();
    // The title is under SPEC's question.
    await expect(page.getByRole("alertdialog", { name: "Delete this content?" })).toHaveAccessibleDescription(
      "Plain two",
    );
    await page.getByRole("alertdialog").getByRole("link", { name: "Cancel", exact: true }).click();
    await page.waitForURL("**/dashboard");
    expect(await titles(page)).toEqual(["Plain one, edited", "Plain two"]);
    await page.getByRole("button", { name: "Delete Plain two" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.waitForURL("**/dashboard");
    expect(await titles(page)).toEqual(["Plain one, edited"]);
  });

  test("content: Cancel is a link back to the view that says what it does; what was saved stays", async ({ page }) => {
    await signUpAndLogIn(page, "content-cancel-nojs");
    const created = await (
      await page.request.post("/api/content", { data: { title: "Plain cancel", body: "Kept as saved" } })
    ).json();
    await page.goto(`/content/${created.id}?edit=1`);
    const cancel = page.getByRole("link", { name: "Cancel", exact: true });
    await expect(cancel).toHaveAccessibleDescription("Cancel leaves without saving.");
    await page.getByLabel("Body").fill("Typed without JavaScript");
    await cancel.click();
    await expect(page).toHaveURL(new RegExp(`/content/${created.id}$`));
    await expect(page.locator(".content-body")).toHaveText("Kept as saved");
  });

  test("a long item is shown and edited whole, not left on its loading placeholder", async ({ page }) => {
    await signUpAndLogIn(page, "content-long");
    // 60 KB: well past the 12,800 bytes beyond which React sends a Suspense boundary's content after its
    // fallback, for a script to swap in.
    const body = Array.from({ length: 1200 }, (_, line) => `Line ${line + 1} of a long piece of writing.`).join("\n");
    const created = await page.request.post("/api/content", { data: { title: "Long piece", body } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await page.goto(`/content/${id}`);
    await expect(page.getByRole("heading", { name: "Long piece" })).toBeVisible();
    await expect(page.getByText("Line 1200 of a long piece of writing.")).toBeVisible();
    await page.goto(`/content/${id}?edit=1`);
    await expect(page.getByLabel("Body")).toHaveValue(body);
  });
});
