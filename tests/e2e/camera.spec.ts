import fs from "node:fs/promises";
import { expect, test, type Download, type Page } from "../support/e2e-test";
import { CAMERA_FILTERS } from "../../app/browser/camera/camera-filters";
import { CHROMIUM_FLAGS } from "../harness/launch.mjs";
import { signUpAndLogIn } from "../support/e2e-session";
import { dismissAppAlert } from "../support/app-dialog";
import { recordedMoreThan, tapCapture, videoFrames, watchRecorders } from "../support/e2e-media";

// Chromium's fake camera (playwright.config.ts): a 640x480 green test card with a turning wedge.
const PNG_SIGNATURE = "89504e470d0a1a0a";
const EBML_SIGNATURE = "1a45dfa3";

async function downloadedBytes(download: Download): Promise<Buffer> {
  return fs.readFile((await download.path())!);
}

/** Decodes a PNG in the page and returns its size and mean colour. */
async function pictureStats(page: Page, png: Buffer) {
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d")!;
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const sum = [0, 0, 0];
    let count = 0;
    for (let i = 0; i < data.length; i += 4 * 5) {
      sum[0] += data[i];
      sum[1] += data[i + 1];
      sum[2] += data[i + 2];
      count++;
    }
    return { width: bitmap.width, height: bitmap.height, mean: sum.map((value) => value / count) };
  }, png.toString("base64"));
}

const colourDistance = (a: number[], b: number[]) =>
  Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);

/** Keeps every stream getUserMedia hands out, so a test can check that leaving stops them. */
function recordStreams(page: Page) {
  return page.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { __streams: MediaStream[] }).__streams = streams;
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      streams.push(stream);
      return stream;
    };
  });
}

test.describe("camera", () => {
  test.beforeEach(async ({ page }) => {
    await signUpAndLogIn(page, "camera");
  });

  test("live preview plays; every filter changes the photo; photos download as PNG", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("/camera");
    const video = page.locator("video.camera-source");
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
    const startTime = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(startTime);
    await expect(page.getByRole("link", { name: "Try Camera V2 →" })).toHaveAttribute("href", "/camera-v2");

    const filterSelect = page.getByLabel("Filter", { exact: true });
    expect(
      await filterSelect.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual([...CAMERA_FILTERS]);

    const means = new Map<string, number[]>();
    for (const filter of CAMERA_FILTERS) {
      await filterSelect.selectOption(filter);
      await expect(page.locator(".camera-stage")).toHaveAttribute("data-filter", filter);
      await videoFrames(video, 3); // frames drawn with the new filter
      const download = page.waitForEvent("download");
      await tapCapture(page, () => page.getByRole("button", { name: "Capture" }).click());
      const photo = await download;
      expect(photo.suggestedFilename()).toMatch(new RegExp(`^camera-${filter}-\\d{4}-\\d{2}-\\d{2}-\\d{6}\\.png$`));
      const bytes = await downloadedBytes(photo);
      expect(bytes.subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
      const stats = await pictureStats(page, bytes);
      expect(stats).toMatchObject({ width: 640, height: 480 });
      means.set(filter, stats.mean);
      await expect(page.locator(".capture-saved")).toHaveText(`Photo downloaded: ${photo.suggestedFilename()}`);
    }

    // Every filter is measurably different from no filter and from every other filter.
    const report = [...means]
      .map(([filter, mean]) => `${filter}: ${mean.map((value) => value.toFixed(1)).join(", ")}`)
      .join("\n");
    for (const [filter, mean] of means) {
      for (const [other, otherMean] of means) {
        if (filter >= other) continue;
        expect(colourDistance(mean, otherMean), `${filter} vs ${other}\n${report}`).toBeGreaterThan(30);
      }
    }
    expect(errors).toEqual([]);
  });

  test("holding the capture button records a WebM video from the filtered canvas; Enter takes a photo", async ({
    page,
  }) => {
    await watchRecorders(page);
    await page.goto("/camera");
    await page.getByLabel("Filter", { exact: true }).selectOption("cyber");
    const capture = page.getByRole("button", { name: "Capture" });
    await expect
      .poll(() => page.locator("canvas.camera-canvas").evaluate((canvas: HTMLCanvasElement) => canvas.width))
      .toBe(640);
    // Ready: a frame is on the canvas, so a press can record.
    await expect(capture).toBeEnabled();
    await capture.scrollIntoViewIfNeeded();
    const box = (await capture.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect(page.getByRole("status").filter({ hasText: "REC" })).toBeVisible();
    await expect(page.locator(".capture-button")).toHaveAttribute("data-recording", "true");
    // The encoder has its first second out (the recorder hands out data each second).
    await recordedMoreThan(page);
    const download = page.waitForEvent("download");
    await page.mouse.up();
    const video = await download;
    expect(video.suggestedFilename()).toMatch(/^camera-cyber-.*\.webm$/);
    const bytes = await downloadedBytes(video);
    expect(bytes.subarray(0, 4).toString("hex")).toBe(EBML_SIGNATURE);
    expect(bytes.length).toBeGreaterThan(1000);
    await expect(page.locator(".capture-saved")).toHaveText(`Video downloaded: ${video.suggestedFilename()}`);
    await expect(page.locator(".capture-button")).toHaveAttribute("data-recording", "false");

    // The keyboard works too: a short press of Enter takes a photo.
    const photoDownload = page.waitForEvent("download");
    await capture.focus();
    await tapCapture(page, () => page.keyboard.press("Enter"));
    expect((await photoDownload).suggestedFilename()).toMatch(/^camera-cyber-.*\.png$/);
  });

  test("one camera: Flip Camera is disabled and says why; leaving the page stops the camera", async ({ page }) => {
    await recordStreams(page);
    await page.goto("/camera");
    await expect(page.getByText("Only one camera was found, so there is no other side to flip to.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Flip Camera" })).toBeDisabled();
    const live = () =>
      page.evaluate(() =>
        (window as unknown as { __streams: MediaStream[] }).__streams.flatMap((stream) =>
          stream.getTracks().map((track) => track.readyState),
        ),
      );
    expect(await live()).toEqual(["live"]);
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(live).toEqual(["ended"]);
  });

  test("before the camera is ready, Capture waits, disabled, and says so", async ({ page }) => {
    // A camera that never answers (the permission prompt left open).
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => new Promise(() => {});
    });
    await page.goto("/camera");
    await expect(page.locator(".camera-stage-note")).toHaveText("Starting camera…");
    // Ready means a picture in the preview (tests/e2e/camera-ready.spec.ts): until then nothing to capture.
    const capture = page.locator("button.capture-button");
    await expect(capture).toBeDisabled();
    await expect(capture).toHaveAccessibleName("Starting camera…");
    await expect(page.getByRole("button", { name: "Capture" })).toHaveCount(0);
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 667 },
  ])
    test(`a refused camera says so in the page; Try again asks once more in the app's alert (${viewport.width}×${viewport.height})`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      // Refused once (then allowed, as after changing the site's permission).
      await page.addInitScript(() => {
        const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        let calls = 0;
        navigator.mediaDevices.getUserMedia = (constraints) =>
          ++calls === 1
            ? Promise.reject(new DOMException("Permission denied", "NotAllowedError"))
            : original(constraints);
      });
      await page.goto("/camera");
      // The app's alert, SPEC's words, then the same words in the page.
      await dismissAppAlert(page, "Please allow camera access.");
      await expect(page.getByRole("alert")).toHaveText("Please allow camera access.");
      await expect(page.getByRole("button", { name: "Capture" })).toBeDisabled();

      await page.getByRole("button", { name: "Try again" }).click();
      await expect(page.getByRole("alert")).toHaveCount(0);
      await expect
        .poll(() => page.locator("video.camera-source").evaluate((video: HTMLVideoElement) => video.videoWidth))
        .toBeGreaterThan(0);
      await expect(page.getByRole("button", { name: "Capture" })).toBeEnabled();
    });
});

test("two cameras: Flip Camera switches to the other camera and releases the first", async ({
  playwright,
  baseURL,
}) => {
  // A browser of its own whose fake device has two cameras (neither says which way it faces).
  const args = [
    ...CHROMIUM_FLAGS,
    "--use-fake-device-for-media-stream=device-count=2",
    "--use-fake-ui-for-media-stream",
  ];
  const twoCameraBrowser = await playwright.chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args,
  });
  try {
    const page = await (await twoCameraBrowser.newContext({ baseURL })).newPage();
    await signUpAndLogIn(page, "flip");
    await recordStreams(page);
    await page.goto("/camera");
    const flip = page.getByRole("button", { name: "Flip Camera" });
    await expect(flip).toBeEnabled();
    await flip.click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __streams: MediaStream[] }).__streams.length))
      .toBeGreaterThanOrEqual(2);
    await expect(flip).toBeEnabled();
    const streams = await page.evaluate(() =>
      (window as unknown as { __streams: MediaStream[] }).__streams.map((stream) => {
        const track = stream.getVideoTracks()[0];
        return { deviceId: track.getSettings().deviceId, state: track.readyState };
      }),
    );
    const first = streams[0];
    const current = streams.at(-1)!;
    expect(current.state).toBe("live");
    expect(first.state).toBe("ended");
    expect(current.deviceId).not.toBe(first.deviceId);
    await expect
      .poll(() => page.locator("video.camera-source").evaluate((element: HTMLVideoElement) => element.videoWidth))
      .toBeGreaterThan(0);
  } finally {
    await twoCameraBrowser.close();
  }
});

test.describe("camera with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("says the camera needs JavaScript", async ({ page }) => {
    await signUpAndLogIn(page, "camera-nojs");
    await page.goto("/camera");
    await expect(page.getByRole("heading", { name: "Camera", exact: true })).toBeVisible();
    // (Playwright's text matching skips <noscript>, so the message is found by its class.)
    const notice = page.locator(".requires-javascript");
    await expect(notice).toBeVisible();
    await expect(notice).toHaveText(
      "The camera runs in your browser and needs JavaScript. Turn JavaScript on and reload this page to use it.",
    );
    await expect(page.getByRole("button", { name: "Capture" })).toHaveCount(0);
  });

  test("needs a session", async ({ page }) => {
    await page.goto("/camera");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcamera$/);
  });
});
