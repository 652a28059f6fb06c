import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "../support/e2e-test";
import { PNG_BYTES } from "../support/media";
import { signUpAndLogIn } from "../support/e2e-session";
import { answerAppDialog } from "../support/app-dialog";

// A real MP3 to play: one of the bundled demos (made by tools/assets/compose-music.mjs).
const REAL_MP3 = fs.readFileSync(path.resolve("public/static/music-demos/demo2.mp3"));
const toast = (page: Page, text: string) => page.locator(".Toastify").getByText(text, { exact: true });
/** A field's own error: the picker's under the picker, a rename's beside its name field (decision 0044). */
const uploadError = (page: Page) =>
  page.getByRole("region", { name: "Upload a voice clip" }).getByTestId("upload-error");
const renameError = (page: Page) => page.getByTestId("voice-item").locator(".media-rename").getByTestId("rename-error");

test("voices: upload with a percent, play at a chosen speed with loop and restart, rename, delete", async ({
  page,
}) => {
  await signUpAndLogIn(page, "voices");
  await page.goto("/voices");
  await expect(page.getByRole("heading", { name: "Voices", exact: true })).toBeVisible();
  await expect(page.getByText("No voices yet. Upload an MP3!")).toBeVisible();
  const fileInput = page.getByLabel("Upload MP3");

  // Only names ending in .mp3 are sent (docs/screens.md#validation-rules).
  await fileInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(uploadError(page)).toHaveText("Only MP3 files allowed");

  // A name ending in .mp3 whose content is not MP3: the server refuses it.
  await fileInput.setInputFiles({ name: "fake.mp3", mimeType: "audio/mpeg", buffer: PNG_BYTES });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(uploadError(page)).toContainText("❌ Upload failed");
  await expect(uploadError(page)).toContainText("Only MP3 files allowed");

  // The real upload, watching for the percent while it runs.
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { seenProgress: string[] }).seenProgress = []);
    new MutationObserver(() => {
      const text = document.querySelector(".upload-progress")?.textContent;
      if (text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await fileInput.setInputFiles({ name: "First take.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(toast(page, "✅ Upload successful!")).toBeVisible();
  const seen = await page.evaluate(() => (window as unknown as { seenProgress: string[] }).seenProgress);
  expect(seen.some((text) => /Uploading\.\.\. \d+%/.test(text))).toBe(true);
  const item = page.getByTestId("voice-item");
  await expect(item).toHaveCount(1);
  await expect(item.locator(".media-name")).toHaveText("First take.mp3");

  // Playback: speed, loop and restart apply to the players.
  await page.getByLabel("Playback speed").selectOption("1.5");
  await page.getByRole("button", { name: /Loop: off/ }).click();
  await expect(page.getByRole("button", { name: /Loop: on/ })).toHaveAttribute("aria-pressed", "true");
  const audio = item.locator("audio");
  await audio.evaluate((element: HTMLAudioElement) => element.play());
  // Well into the clip first, so a restart shows even on a busy machine (the clip plays on while we look).
  await expect
    .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(2.5);
  expect(
    await audio.evaluate((element: HTMLAudioElement) => [element.playbackRate, element.loop, element.duration > 30]),
  ).toEqual([1.5, true, true]);
  await page.getByRole("button", { name: "Restart" }).click();
  expect(await audio.evaluate((element: HTMLAudioElement) => element.currentTime)).toBeLessThan(1.5);
  await audio.evaluate((element: HTMLAudioElement) => element.pause());

  // Rename: blank is refused; .mp3 is appended.
  await page.getByRole("link", { name: "Rename First take.mp3" }).click();
  const nameField = page.getByLabel("New name for First take.mp3");
  await nameField.fill("   ");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(renameError(page)).toHaveText("Enter a name before saving");
  await nameField.fill("Better take");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "✨ Renamed successfully")).toBeVisible();
  await expect(item.locator(".media-name")).toHaveText("Better take.mp3");
  await expect(item.locator("audio")).toHaveAttribute("src", "/static/voices/Better%20take.mp3");

  // Delete.
  await page.getByRole("button", { name: "Delete Better take.mp3" }).click();
  await answerAppDialog(page, "Delete “Better take.mp3”?", "Delete");
  await expect(toast(page, "🗑️ File deleted")).toBeVisible();
  await expect(page.getByText("No voices yet. Upload an MP3!")).toBeVisible();
});

test("voices: a failed delete and rename say so", async ({ page }) => {
  await signUpAndLogIn(page, "voices-fail");
  await page.request.post("/api/voice/upload", {
    multipart: { file: { name: "keep.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 } },
  });
  await page.goto("/voices");
  // Rename and delete post to the screen's own action (a fetcher): those posts never get an answer.
  await page.route(/\/voices\.data/, (route) =>
    route.request().method() === "POST" ? route.abort("failed") : route.continue(),
  );
  await page.getByRole("button", { name: "Delete keep.mp3" }).click();
  await answerAppDialog(page, "Delete “keep.mp3”?", "Delete");
  await expect(toast(page, "Delete failed")).toBeVisible();
  await page.getByRole("link", { name: "Rename keep.mp3" }).click();
  await page.getByLabel("New name for keep.mp3").fill("other");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(renameError(page)).toHaveText("Rename failed");
  await expect(page.getByTestId("voice-item")).toHaveCount(1);
});

test("voices: uploading a name already taken fails with the reason", async ({ page }) => {
  await signUpAndLogIn(page, "voices-taken");
  await page.request.post("/api/voice/upload", {
    multipart: { file: { name: "keep.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 } },
  });
  await page.goto("/voices");
  await page.getByLabel("Upload MP3").setInputFiles({ name: "keep.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(uploadError(page)).toContainText("❌ Upload failed");
  await expect(uploadError(page)).toContainText("A file with that name already exists");
  await expect(page.getByTestId("voice-item")).toHaveCount(1);
});

test.describe("voices with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("upload, rename and delete work as plain forms", async ({ page }) => {
    await signUpAndLogIn(page, "voices-nojs");
    await page.goto("/voices");
    await expect(page.getByText("No voices yet. Upload an MP3!")).toBeVisible();

    await page.getByLabel("Upload MP3").setInputFiles({ name: "nojs.mp3", mimeType: "audio/mpeg", buffer: PNG_BYTES });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(uploadError(page)).toContainText("Upload failed");
    await expect(uploadError(page)).toContainText("Only MP3 files allowed");

    await page.getByLabel("Upload MP3").setInputFiles({ name: "nojs.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page).toHaveURL(/\/voices$/);
    await expect(page.getByRole("status").filter({ hasText: "✅ Upload successful!" })).toBeVisible();
    await expect(page.getByTestId("voice-item").locator(".media-name")).toHaveText("nojs.mp3");
    // The page after the redirect shows an empty picker.
    expect(await page.getByLabel("Upload MP3").evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);

    // The same name again: the page says why the upload failed.
    await page.getByLabel("Upload MP3").setInputFiles({ name: "nojs.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(uploadError(page)).toContainText("Upload failed");
    await expect(uploadError(page)).toContainText("A file with that name already exists");
    await expect(page.getByTestId("voice-item")).toHaveCount(1);

    await page.getByRole("link", { name: "Rename nojs.mp3" }).click();
    await expect(page).toHaveURL(/rename=nojs\.mp3/);
    await page.getByLabel("New name for nojs.mp3").fill("");
    await page.getByRole("button", { name: "Save" }).click();
    // Beside the field, once (not again under the upload card).
    await expect(renameError(page)).toHaveText("Enter a name before saving");
    await expect(page.getByLabel("New name for nojs.mp3")).toHaveAttribute("aria-describedby", "voice-rename-error");
    await expect(page.getByText("Enter a name before saving")).toHaveCount(1);
    await page.getByLabel("New name for nojs.mp3").fill("plain form");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "✨ Renamed successfully" })).toBeVisible();
    await expect(page.getByTestId("voice-item").locator(".media-name")).toHaveText("plain form.mp3");

    await page.getByRole("button", { name: "Delete plain form.mp3" }).click();
    // Without JavaScript the screen asks on its page first.
    await page
      .getByRole("alertdialog", { name: "Delete “plain form.mp3”?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "🗑️ File deleted" })).toBeVisible();
    await expect(page.getByText("No voices yet. Upload an MP3!")).toBeVisible();
  });
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`voices at ${viewport.width}x${viewport.height}: a blank rename's error sits beside its field, once and with no toast, and goes once fixed; so does an upload's`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "voices-field-errors");
    await page.request.post("/api/voice/upload", {
      multipart: { file: { name: "keep.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 } },
    });
    await page.goto("/voices");

    await page.getByRole("link", { name: "Rename keep.mp3" }).click();
    const field = page.getByLabel("New name for keep.mp3");
    await field.fill("   ");
    await page.getByTestId("voice-item").getByRole("button", { name: "Save" }).click();
    const error = renameError(page);
    await expect(error).toHaveText("Enter a name before saving");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAttribute("aria-describedby", (await error.getAttribute("id"))!);
    // Once: not again under the upload card, and no toast.
    await expect(page.getByText("Enter a name before saving")).toHaveCount(1);
    await expect(toast(page, "Enter a name before saving")).toHaveCount(0);
    await expect(page.getByTestId("media-outcome")).toHaveCount(0);
    // Beside the field: right under it, in the same row.
    const fieldBox = (await field.boundingBox())!;
    const errorBox = (await error.boundingBox())!;
    expect(errorBox.y).toBeGreaterThanOrEqual(fieldBox.y);
    expect(errorBox.y - (fieldBox.y + fieldBox.height)).toBeLessThan(60);
    // Fixed: the error goes as a name is typed.
    await field.fill("Better");
    await expect(error).toHaveCount(0);
    await expect(field).not.toHaveAttribute("aria-invalid", "true");

    // The picker's refusal sits under the picker, once, tied to it, and goes with the next choice.
    const picker = page.getByLabel("Upload MP3");
    await picker.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(uploadError(page)).toHaveText("Only MP3 files allowed");
    await expect(picker).toHaveAttribute("aria-describedby", (await uploadError(page).getAttribute("id"))!);
    await expect(page.getByText("Only MP3 files allowed")).toHaveCount(1);
    await expect(toast(page, "Only MP3 files allowed")).toHaveCount(0);
    await picker.setInputFiles({ name: "Second take.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 });
    await expect(uploadError(page)).toHaveCount(0);
  });
}
