import { expect, test, type Page, hydrated } from "../support/e2e-test";
import { editWithSavesFailing } from "../support/e2e-editor";
import { PASSWORD, signUpAndLogIn, uniqueEmail } from "../support/e2e-session";

// The sign-in screens, the dashboard after Create and a plain-form pin, the content editor's Cancel,
// status line and title counter, and the AI video's empty prompt (docs/screens.md#sign-in-screens,
// #create, #content-view, #title-counter), at a desktop's and a phone's size, with JavaScript on and off.

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
];

const justChangedRow = (page: Page) => page.locator("#content .content-list > li.just-changed");

async function register(page: Page, email: string) {
  await page.goto("/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("status")).toContainText("Account created");
  await page.waitForURL(/\/login$/, { timeout: 5000 });
  // The address moves before the Login screen has replaced Register's (a transition).
  await expect(page.getByLabel("Confirm Password")).toHaveCount(0);
}

/**
 * Items made through the API, oldest first ("Item 00" is the oldest), enough to put the list's end
 * below the first screen; `pinnedFrom`: those from this index on are pinned.
 */
async function makeItems(page: Page, count: number, pinnedFrom = count) {
  for (let index = 0; index < count; index++) {
    const title = `Item ${String(index).padStart(2, "0")}`;
    const created = await page.request.post("/api/content", { data: { title, body: "" } });
    expect(created.status()).toBe(201);
    if (index < pinnedFrom) continue;
    const { id } = (await created.json()) as { id: string };
    expect((await page.request.post(`/api/content/${id}/pin`, { data: { pinned: true } })).status()).toBe(200);
  }
}

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}x${viewport.height}`;

  test.describe(`with JavaScript at ${size}`, () => {
    test.use({ viewport });

    test("register: the password rule before the first try, show password, logo and Home; Login opens with the email", async ({
      page,
    }) => {
      await page.goto("/register");
      await hydrated(page);
      await expect(page.getByRole("link", { name: "Creative AI Studio" })).toHaveAttribute("href", "/");
      await expect(page.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
      const password = page.getByLabel("Password", { exact: true });
      const confirm = page.getByLabel("Confirm Password");
      await expect(password).toHaveAccessibleDescription("At least 8 characters.");
      await expect(page.getByText("At least 8 characters.")).toBeVisible();

      const toggle = page.getByRole("button", { name: "Show password" });
      await expect(toggle).toHaveAttribute("aria-pressed", "false");
      await expect(password).toHaveAttribute("type", "password");
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-pressed", "true");
      await expect(password).toHaveAttribute("type", "text");
      await expect(confirm).toHaveAttribute("type", "text");
      await toggle.click();
      await expect(confirm).toHaveAttribute("type", "password");

      const email = uniqueEmail("prefill");
      await register(page, email);
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await expect(page.getByLabel("Password")).toHaveValue("");
      await expect(page.getByLabel("Password")).toBeFocused();
      // Read once: a reload opens an empty form.
      await page.reload();
      await expect(page.getByLabel("Email")).toHaveValue("");
    });

    test("login: a failure shows in the app's alert and in the form; Logout says you signed out", async ({ page }) => {
      const email = uniqueEmail("alert");
      await page.request.post("/api/auth/register", { data: { email, password: PASSWORD } });
      await page.goto("/login");
      await hydrated(page);
      await expect(page.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("wrong password");
      await page.getByRole("button", { name: "Show password" }).click();
      await expect(page.getByLabel("Password")).toHaveAttribute("type", "text");
      await page.getByRole("button", { name: "Login" }).click();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog).toHaveText(/^Login failed\. Please check your credentials\.\s*OK$/);
      await expect(dialog.getByRole("button", { name: "OK" })).toBeFocused();
      await dialog.getByRole("button", { name: "OK" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole("alert")).toHaveText("Login failed. Please check your credentials.");

      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL(/\/dashboard$/);
      await page.goto("/login");
      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("status")).toHaveText("You have signed out.");
      await page.reload();
      await expect(page.getByText("You have signed out.")).toHaveCount(0);
    });

    test("a screen that sends the person to Login says why in the app's alert", async ({ page }) => {
      await page.goto("/projects");
      await page.waitForURL(/\/login\?redirectTo=%2Fprojects$/);
      const dialog = page.getByRole("alertdialog");
      await expect(dialog).toContainText("Please log in again.");
      await dialog.getByRole("button", { name: "OK" }).click();
      await expect(dialog).toHaveCount(0);
    });

    test("after Create the dashboard shows the new piece in view, highlighted, with the toast", async ({ page }) => {
      await signUpAndLogIn(page, "create-lands");
      await makeItems(page, 6);
      await page.goto("/create");
      await hydrated(page);
      await page.getByLabel("Title").fill("Fresh piece");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByText("Content created")).toBeVisible();
      await expect(justChangedRow(page)).toHaveCount(1);
      const link = justChangedRow(page).getByRole("link", { name: "Fresh piece" });
      await expect(link).toBeFocused();
      await expect(link).toBeInViewport();
      // Once: the next visit shows no highlight.
      await page.reload();
      await expect(justChangedRow(page)).toHaveCount(0);
    });

    test("the editor: Cancel's question under Cancel with the focus; a quiet status line; Escape goes back", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "cancel-here");
      const created = await page.request.post("/api/content", { data: { title: "Notes", body: "The beginning" } });
      const { id } = (await created.json()) as { id: string };
      await page.goto(`/content/${id}`);
      await hydrated(page);
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      await page.getByLabel("Body").fill("Autosaved middle");
      // Before the autosave: text and an icon, no message box.
      const status = page.locator("p.content-status");
      await expect(status).toHaveText("Unsaved changes");
      await expect(status.locator("svg")).toHaveCount(1);
      await expect(page.getByRole("status")).toHaveText("💾 Saved", { timeout: 8000 });
      // SPEC's text brings its own emoji: no icon beside it.
      await expect(status.locator("svg")).toHaveCount(0);
      const box = await status.evaluate((element) => {
        const style = getComputedStyle(element);
        return { background: style.backgroundColor, border: style.borderTopWidth, classes: element.className };
      });
      expect(box).toEqual({
        background: "rgba(0, 0, 0, 0)",
        border: "0px",
        classes: expect.not.stringMatching(/message/),
      });

      const cancel = page.getByRole("link", { name: "Cancel", exact: true });
      await cancel.click();
      const question = page.getByRole("alertdialog", { name: /Keep them, or go back/ });
      await expect(question).toBeInViewport({ ratio: 1 });
      await expect(question.getByRole("button", { name: "Keep editing" })).toBeFocused();
      const cancelBox = (await cancel.boundingBox())!;
      const questionBox = (await question.boundingBox())!;
      // Right under Cancel's row.
      expect(questionBox.y).toBeGreaterThanOrEqual(cancelBox.y + cancelBox.height - 1);
      expect(questionBox.y - (cancelBox.y + cancelBox.height)).toBeLessThan(120);
      await page.keyboard.press("Escape");
      await expect(question).toHaveCount(0);
      await expect(cancel).toBeFocused();
    });

    test("the title counts near its limit and says when it is reached, in Create and in the editor", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "title-counter");
      await page.goto("/create");
      await hydrated(page);
      const title = page.getByLabel("Title");
      await expect(title).toHaveAttribute("maxlength", "200");
      await title.fill("a".repeat(150));
      await expect(page.locator(".field-counter")).toHaveCount(0);
      await title.fill("a".repeat(185));
      await expect(page.locator(".field-counter")).toHaveText("185/200");
      await expect(title).toHaveAccessibleDescription("185/200");
      await title.pressSequentially("b".repeat(20));
      await expect(title).toHaveValue(`${"a".repeat(185)}${"b".repeat(15)}`);
      await expect(page.locator(".field-counter")).toHaveText("200/200 — the limit");

      await page.getByRole("button", { name: "Create", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await justChangedRow(page).getByRole("link").click();
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      await expect(page.locator(".field-counter")).toHaveText("200/200 — the limit");
      await page.getByLabel("Title").fill("Short again");
      await expect(page.locator(".field-counter")).toHaveCount(0);
    });

    test("leaving the editor after a failed save asks in the app's dialog: Stay keeps the editor, Leave goes", async ({
      page,
    }) => {
      const id = await editWithSavesFailing(page, "leave-unsaved", "Typed while the network is gone");
      await page.goBack();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog).toContainText("Your changes could not be saved. Leave anyway and lose them?");
      await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(page).toHaveURL(/\?edit=1$/);
      await expect(page.getByLabel("Body")).toHaveValue("Typed while the network is gone");

      await page.goBack();
      await page.getByRole("alertdialog").getByRole("button", { name: "Leave" }).click();
      await expect(page).toHaveURL(new RegExp(`/content/${id}$`));
    });

    test("AI video: an empty prompt says Please enter a prompt. and starts nothing", async ({ page }) => {
      await signUpAndLogIn(page, "video-empty");
      await page.goto("/aivideo");
      await hydrated(page);
      let posted = false;
      page.on("request", (request) => {
        if (request.method() === "POST") posted = true;
      });
      await page.getByLabel("Prompt").fill("   ");
      await page.getByRole("button", { name: "Generate Video" }).click();
      await expect(page.getByRole("alert")).toHaveText("Please enter a prompt.");
      await expect(page.getByLabel("Prompt")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Prompt")).toHaveAccessibleDescription("Please enter a prompt.");
      await expect(page.getByLabel("Prompt")).toBeFocused();
      await expect(page.getByTestId("video-status")).toHaveCount(0);
      expect(posted).toBe(false);
      // Typing clears it.
      await page.getByLabel("Prompt").fill("A quiet lake");
      await expect(page.getByRole("alert")).toHaveCount(0);
    });
  });

  test.describe(`without JavaScript at ${size}`, () => {
    test.use({ viewport, javaScriptEnabled: false });

    test("register: a refusal keeps the email; after Create Account Login opens with it", async ({ page }) => {
      const email = uniqueEmail("nojs-keep");
      await page.goto("/register");
      await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription("At least 8 characters.");
      // No JavaScript: no toggle, the fields stay password fields.
      await expect(page.getByRole("button", { name: "Show password" })).toHaveCount(0);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Confirm Password").fill("something else");
      await page.getByRole("button", { name: "Create Account" }).click();
      await expect(page.getByRole("alert")).toHaveText("❌ Passwords do not match.");
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");

      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Confirm Password").fill(PASSWORD);
      // The success page goes on to /login after 1.5 s (no-javascript.spec.ts reads its message).
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.waitForURL(/\/login$/, { timeout: 5000 });
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Login" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test("Logout: Login says you signed out", async ({ page }) => {
      await signUpAndLogIn(page, "nojs-out");
      await page.goto("/login");
      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("status")).toHaveText("You have signed out.");
      await expect(page.getByRole("link", { name: "Creative AI Studio" })).toHaveAttribute("href", "/");
    });

    test("after Create the new piece is in view, highlighted and focused", async ({ page }) => {
      await signUpAndLogIn(page, "nojs-create");
      await makeItems(page, 6);
      await page.goto("/create");
      await page.getByLabel("Title").fill("Made without scripts");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByText("Content created")).toBeVisible();
      const link = justChangedRow(page).getByRole("link", { name: "Made without scripts" });
      await expect(link).toBeFocused();
      await expect(link).toBeInViewport();
    });

    test("a pin returns to the item, not the top", async ({ page }) => {
      await signUpAndLogIn(page, "nojs-pin");
      // All pinned but the oldest, which stays last when pinned too (pinned first, newest first): below the first screen.
      await makeItems(page, 16, 1);
      await page.goto("/dashboard");
      const pin = page.getByRole("button", { name: "Pin Item 00", exact: true });
      await pin.scrollIntoViewIfNeeded();
      await pin.click();
      await expect(page).toHaveURL(/\/dashboard$/);
      const star = page.getByRole("button", { name: "Unpin Item 00", exact: true });
      await expect(star).toBeFocused();
      await expect(star).toBeInViewport();
      await expect(justChangedRow(page)).toContainText("Item 00");
      // It is the last row: the page was scrolled to it, not left at the top.
      await expect(page.getByRole("list", { name: "Content items" }).getByRole("link").last()).toHaveText("Item 00");
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    });

    test("the editor's title counter is in the page as served", async ({ page }) => {
      await signUpAndLogIn(page, "nojs-counter");
      const created = await page.request.post("/api/content", { data: { title: "t".repeat(190), body: "" } });
      const { id } = (await created.json()) as { id: string };
      await page.goto(`/content/${id}?edit=1`);
      await expect(page.locator(".field-counter")).toHaveText("190/200");
      await expect(page.getByLabel("Title")).toHaveAccessibleDescription("190/200");
    });

    test("AI video: an empty prompt is answered 400 with Please enter a prompt.", async ({ page }) => {
      await signUpAndLogIn(page, "nojs-video-empty");
      await page.goto("/aivideo");
      const answer = page.waitForResponse((response) => response.request().method() === "POST");
      await page.getByRole("button", { name: "Generate Video" }).click();
      expect((await answer).status()).toBe(400);
      await expect(page.getByRole("alert")).toHaveText("Please enter a prompt.");
      await expect(page.getByLabel("Prompt")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByTestId("video-status")).toHaveCount(0);
    });
  });
}
