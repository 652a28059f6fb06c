import fs from "node:fs/promises";
import { expect, test, type Page } from "../support/e2e-test";
import { CAMERA_V2_FILTERS } from "../../app/browser/camera/camera-filters";
import { signUpAndLogIn } from "../support/e2e-session";
import { dismissAppAlert } from "../support/app-dialog";
import { recordedMoreThan, tapCapture, watchRecorders } from "../support/e2e-media";

const PNG_SIGNATURE = "89504e470d0a1a0a";
const EBML_SIGNATURE = "1a45dfa3";

const galleryItems = (page: Page) => page.getByTestId("gallery-item");

async function waitForPreview(page: Page) {
  await expect
    .poll(() => page.locator("video.camera-source").evaluate((video: HTMLVideoElement) => video.videoWidth))
    .toBeGreaterThan(0);
  // The first filtered frame is on the canvas.
  await expect
    .poll(() =>
      page.locator("canvas.camera-canvas").evaluate((canvas: HTMLCanvasElement) => {
        const pixel = canvas.getContext("2d")!.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
        return pixel[3];
      }),
    )
    .toBe(255);
}

test.describe("camera V2", () => {
  test("sticky header, the five filters plus none (matrix first), a 1280x720 filtered preview", async ({ page }) => {
    await signUpAndLogIn(page, "camv2");
    await page.goto("/camera-v2");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Camera V2.90");
    await expect(page.getByRole("link", { name: "Back to Camera" })).toHaveAttribute("href", "/camera");
    await expect(page.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("href", "/dashboard");
    await expect(page.locator(".capture-header-sticky")).toHaveCSS("position", "sticky");

    const filter = page.getByLabel("Filter", { exact: true });
    await expect(filter).toHaveValue("matrix");
    expect(
      await filter.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual([...CAMERA_V2_FILTERS]);
    await waitForPreview(page);
    const video = page.locator("video.camera-source");
    const startTime = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(startTime);
    const canvas = page.locator("canvas.camera-canvas");
    expect(await canvas.evaluate((element: HTMLCanvasElement) => [element.width, element.height])).toEqual([1280, 720]);
    await expect(page.getByText("No captures yet.")).toBeVisible();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 667 },
  ]) {
    test(`Home takes a signed-in person to their dashboard, not the signed-out landing page, at ${viewport.width}x${viewport.height}`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signUpAndLogIn(page, "camv2-home");
      await page.goto("/camera-v2");
      await page.getByRole("link", { name: "Home", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("heading", { level: 1, name: /Dashboard/ })).toBeVisible();
    });
  }

  test("a photo and a video are kept across reloads and saved as files; Clear All empties the gallery", async ({
    page,
  }) => {
    // Two reloads of a 1280x720 preview plus a video recording: slow on a busy 2-core machine.
    test.setTimeout(60_000);
    await signUpAndLogIn(page, "camv2-gallery");
    await watchRecorders(page);
    await page.goto("/camera-v2");
    await waitForPreview(page);

    // Tap: a photo with the default matrix filter.
    const capture = page.getByRole("button", { name: "Capture" });
    await tapCapture(page, () => capture.click());
    await expect(galleryItems(page)).toHaveCount(1);
    await expect(galleryItems(page).first()).toHaveAttribute("data-type", "photo");
    await expect(galleryItems(page).first()).toHaveAttribute("data-filter", "matrix");

    // Hold: a video with the neon filter.
    await page.getByLabel("Filter", { exact: true }).selectOption("neon");
    await capture.scrollIntoViewIfNeeded();
    const box = (await capture.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect(page.getByRole("status").filter({ hasText: "REC" })).toBeVisible();
    // Software VP8 at 1280x720 on a busy 2-core machine: released once its first second is out.
    await recordedMoreThan(page);
    await page.mouse.up();
    await expect(galleryItems(page)).toHaveCount(2);

    // Both survive a reload (IndexedDB), newest first, shown from object URLs.
    await page.reload();
    await expect(galleryItems(page)).toHaveCount(2);
    const video = galleryItems(page).nth(0);
    const photo = galleryItems(page).nth(1);
    await expect(video).toHaveAttribute("data-type", "video");
    await expect(video).toHaveAttribute("data-filter", "neon");
    await expect(photo).toHaveAttribute("data-type", "photo");
    await expect
      .poll(() => photo.locator("img").evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]))
      .toEqual([1280, 720]);
    await expect
      .poll(() => video.locator("video").evaluate((element: HTMLVideoElement) => element.videoWidth))
      .toBe(1280);
    expect(await video.locator("video").getAttribute("src")).toMatch(/^blob:/);

    // Save downloads the stored files.
    const photoDownload = page.waitForEvent("download");
    await photo.getByRole("link", { name: /^Save Photo/ }).click();
    const savedPhoto = await photoDownload;
    expect(savedPhoto.suggestedFilename()).toMatch(/^camera-v2-matrix-.*\.png$/);
    expect((await fs.readFile((await savedPhoto.path())!)).subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
    const videoDownload = page.waitForEvent("download");
    await video.getByRole("link", { name: /^Save Video/ }).click();
    const savedVideo = await videoDownload;
    expect(savedVideo.suggestedFilename()).toMatch(/^camera-v2-neon-.*\.webm$/);
    expect((await fs.readFile((await savedVideo.path())!)).subarray(0, 4).toString("hex")).toBe(EBML_SIGNATURE);

    await page.getByRole("button", { name: "Clear All" }).click();
    await expect(galleryItems(page)).toHaveCount(0);
    await expect(page.getByText("No captures yet.")).toBeVisible();
    await page.reload();
    await expect(page.getByText("No captures yet.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Clear All" })).toBeDisabled();
  });

  test("delete removes one capture for good; each person has their own gallery in a shared browser", async ({
    page,
  }) => {
    await signUpAndLogIn(page, "camv2-first");
    await page.goto("/camera-v2");
    await waitForPreview(page);
    const capture = page.getByRole("button", { name: "Capture" });
    await tapCapture(page, () => capture.click());
    await expect(galleryItems(page)).toHaveCount(1);
    await page.getByLabel("Filter", { exact: true }).selectOption("bw");
    await tapCapture(page, () => capture.click());
    await expect(galleryItems(page)).toHaveCount(2);
    await galleryItems(page)
      .first()
      .getByRole("button", { name: /^Delete Photo, Black & White filter/ })
      .click();
    await expect(galleryItems(page)).toHaveCount(1);
    await page.reload();
    await expect(galleryItems(page)).toHaveCount(1);
    await expect(galleryItems(page).first()).toHaveAttribute("data-filter", "matrix");

    await signUpAndLogIn(page, "camv2-second");
    await page.goto("/camera-v2");
    await expect(page.getByText("No captures yet.")).toBeVisible();
    await expect(galleryItems(page)).toHaveCount(0);
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 667 },
  ])
    test(`a refused camera says so in the page in the app's alert (${viewport.width}×${viewport.height})`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signUpAndLogIn(page, "camv2-denied");
      await page.addInitScript(() => {
        navigator.mediaDevices.getUserMedia = () =>
          Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
      });
      await page.goto("/camera-v2");
      // The app's alert, SPEC's words, then the same words in the page.
      await dismissAppAlert(page, "Please allow camera access.");
      await expect(page.getByRole("alert")).toHaveText("Please allow camera access.");
    });
});

test.describe("camera V2 with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("says it needs JavaScript", async ({ page }) => {
    await signUpAndLogIn(page, "camv2-nojs");
    await page.goto("/camera-v2");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Camera V2.90");
    // (Playwright's text matching skips <noscript>, so the message is found by its class.)
    const notice = page.locator(".requires-javascript");
    await expect(notice).toBeVisible();
    await expect(notice).toHaveText(
      "Camera V2 runs in your browser and needs JavaScript. Turn JavaScript on and reload this page to use it.",
    );
    await expect(page.getByRole("button", { name: "Capture" })).toHaveCount(0);
  });
});
