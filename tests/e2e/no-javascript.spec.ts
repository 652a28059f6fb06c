import { expect, test } from "../support/e2e-test";
import { mp3Frames, PNG_BYTES, webmBytes } from "../support/media";
import { PASSWORD, signUpAndLogIn, uniqueEmail } from "../support/e2e-session";

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("register shows messages and then goes to /login", async ({ page }) => {
    await page.goto("/register");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("⚠️ Please fill in all fields.");
    const email = uniqueEmail("nojs");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill("different!");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("❌ Passwords do not match.");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("status")).toContainText("Account created");
    await page.waitForURL("**/login", { timeout: 5000 });
  });

  test("login: failure message, then success to the dashboard, then logout", async ({ page }) => {
    const email = uniqueEmail("nojs-login");
    await page.request.post("/api/auth/register", { data: { email, password: PASSWORD } });
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert")).toHaveText("Login failed. Please check your credentials.");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("feedback posts as a plain form", async ({ page }) => {
    await page.goto("/feedback");
    await page.getByLabel("Name").fill("Grace");
    await page.getByLabel("Email").fill("grace@example.com");
    await page.getByLabel("Message").fill("Works without scripts too.");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("status")).toHaveText("✅ Feedback sent successfully!");
  });

  test("feedback: a signed-in person's name and email are filled in, and a changed one is sent", async ({ page }) => {
    const { email } = await signUpAndLogIn(page, "feedback-nojs");
    await page.goto("/feedback");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Name")).toHaveValue(email.split("@")[0]);
    await page.getByLabel("Name").fill("Grace Hopper");
    await page.getByLabel("Message").fill("Filled in for me, without scripts.");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("status")).toHaveText("✅ Feedback sent successfully!");
    await expect(page.getByLabel("Name")).toHaveValue("Grace Hopper");
    await expect(page.getByLabel("Email")).toHaveValue(email);
  });

  test("choosing a plan says so in the page", async ({ page }) => {
    await signUpAndLogIn(page);
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Pro", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("current-plan")).toHaveText("Pro");
    await expect(page.getByText("Pro Plan Activated!")).toBeVisible();
    // A flash message is shown once: a reload does not repeat it.
    await page.reload();
    await expect(page.getByText("Pro Plan Activated!")).toHaveCount(0);
  });

  test("dashboard preferences work as plain forms", async ({ page }) => {
    await signUpAndLogIn(page);
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Ultimate" }).click();
    await expect(page.getByTestId("current-plan")).toHaveText("Ultimate");
    await expect(page.getByRole("status").filter({ hasText: "Ultimate Plan Activated!" })).toBeVisible();
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await page.getByRole("link", { name: "Edit mode" }).click();
    await page.getByRole("button", { name: "Move AI Assistant up" }).click();
    await expect(page.locator(".tool-label").first()).toHaveText("AI Assistant");
    await page.getByRole("button", { name: "Close Tools" }).click();
    await expect(page.getByRole("button", { name: "Open Tools" })).toBeVisible();
  });
});

/** The three upload screens (decision 0044) without JavaScript: a plain multipart post, then a redirect. */
const UPLOAD_SCREENS = [
  {
    path: "/voices",
    picker: "Upload MP3",
    file: { name: "Plain.mp3", mimeType: "audio/mpeg", buffer: mp3Frames(20) },
    listed: "Plain.mp3",
  },
  {
    path: "/videos",
    picker: "Choose a video",
    file: { name: "Plain.webm", mimeType: "video/webm", buffer: webmBytes(2048) },
    listed: "Plain.mov",
  },
  {
    path: "/library",
    picker: "Choose a file",
    file: { name: "Plain.png", mimeType: "image/png", buffer: PNG_BYTES },
    listed: "Plain.png",
  },
];

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test.describe(`uploads with JavaScript off at ${viewport.width}x${viewport.height}`, () => {
    test.use({ javaScriptEnabled: false, viewport });

    test("every upload confirms alike after its redirect, with an empty picker; a refusal says why under the picker", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "uploads-nojs");
      for (const screen of UPLOAD_SCREENS) {
        await page.goto(screen.path);
        await page.getByLabel(screen.picker).setInputFiles(screen.file);
        await page.getByRole("button", { name: "Upload", exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${screen.path}$`));
        await expect(page.getByRole("status").filter({ hasText: "✅ Upload successful!" }), screen.path).toBeVisible();
        await expect(page.getByRole("main").getByText(screen.listed, { exact: true }), screen.path).toBeVisible();
        expect(
          await page.getByLabel(screen.picker).evaluate((input: HTMLInputElement) => input.files?.length ?? 0),
          screen.path,
        ).toBe(0);
        await expect(page.getByTestId("drop-zone"), screen.path).not.toContainText("Chosen:");
      }

      // The Library's refusal (a PNG sent as a camera clip) comes back under its picker.
      await page.getByLabel("File type").selectOption("clip");
      await page
        .getByLabel("Choose a file")
        .setInputFiles({ name: "not a clip.webm", mimeType: "video/webm", buffer: PNG_BYTES });
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      const error = page.getByRole("region", { name: "Upload a file" }).getByTestId("upload-error");
      await expect(error).toContainText("❌ Upload failed");
      await expect(error).toContainText("A camera clip must be a WebM video");
      await expect(page.getByLabel("Choose a file")).toHaveAttribute(
        "aria-describedby",
        (await error.getAttribute("id"))!,
      );
      await expect(page.getByText("A camera clip must be a WebM video")).toHaveCount(1);
    });
  });
}
