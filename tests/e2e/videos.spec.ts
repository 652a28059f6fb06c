import fs from "node:fs";
import { expect, test, type Page } from "../support/e2e-test";
import { mp3WithId3, webmBytes } from "../support/media";
import { signUpAndLogIn } from "../support/e2e-session";
import { generateVideo, RAW_ID, shownText } from "../support/e2e-generated-video";
import { answerAppDialog } from "../support/app-dialog";

const toast = (page: Page, text: string) => page.locator(".Toastify").getByText(text, { exact: true });
/** A field's own error: the picker's under the picker, a rename's beside its name field (decision 0044). */
const uploadError = (page: Page) => page.getByRole("region", { name: "Upload a video" }).getByTestId("upload-error");

/** A real, playable one-second WebM, recorded in the browser from a canvas (MediaRecorder, VP8). */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 160;
    canvas.height = 120;
    const context = canvas.getContext("2d")!;
    const stream = canvas.captureStream(25);
    const recorder = new MediaRecorder(stream, { mimeType: "video/webm" });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    let frame = 0;
    const timer = setInterval(() => {
      context.fillStyle = `hsl(${(frame++ * 15) % 360} 80% 50%)`;
      context.fillRect(0, 0, 160, 120);
    }, 40);
    recorder.start(100);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await new Promise((resolve) => {
      recorder.onstop = resolve;
      recorder.stop();
    });
    clearInterval(timer);
    const bytes = new Uint8Array(await new Blob(chunks, { type: "video/webm" }).arrayBuffer());
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, "base64");
}

test("video hub: upload, play in the modal, rename with Enter, open the video page, delete", async ({ page }) => {
  await signUpAndLogIn(page, "videos");
  await page.goto("/videos");
  await expect(page.getByRole("heading", { name: "Video Hub" })).toBeVisible();
  await expect(page.getByText("No videos uploaded yet.")).toBeVisible();
  await expect(page.getByLabel("Choose a video")).toHaveAttribute("accept", "video/*");

  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(uploadError(page)).toHaveText("Please select a video first.");
  await expect(page.getByLabel("Choose a video")).toHaveAttribute("aria-invalid", "true");

  // Content that is not a video: refused by the server.
  await page
    .getByLabel("Choose a video")
    .setInputFiles({ name: "song.mp4", mimeType: "video/mp4", buffer: mp3WithId3() });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(uploadError(page)).toContainText("Failed to upload video.");

  const webm = await recordWebm(page);
  expect(webm.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
  await page
    .getByLabel("Choose a video")
    .setInputFiles({ name: "Beach day.webm", mimeType: "video/webm", buffer: webm });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  const item = page.getByTestId("video-item");
  await expect(item).toHaveCount(1);
  await expect(item.locator(".media-name")).toHaveText("Beach day.mov");

  // Play: the modal plays through a signed URL.
  await page.getByRole("link", { name: "Play Beach day.mov" }).click();
  const modalVideo = page.getByTestId("modal-video");
  await expect(modalVideo).toBeVisible();
  await expect(modalVideo).toHaveAttribute("src", /\/api\/videos\/play\/[0-9a-f-]+\?user=.+&expires=\d+&signature=/);
  await expect
    .poll(() => modalVideo.evaluate((video: HTMLVideoElement) => video.readyState), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(2);
  await page.getByRole("button", { name: "Close player" }).click();
  await expect(modalVideo).toHaveCount(0);

  // Rename: Enter saves, .mov appended; a blank name is ignored.
  await page.getByRole("link", { name: "Rename Beach day.mov" }).click();
  await page.getByLabel("New name for Beach day.mov").fill("Sunset");
  await page.getByLabel("New name for Beach day.mov").press("Enter");
  await expect(item.locator(".media-name")).toHaveText("Sunset.mov");
  await page.getByRole("link", { name: "Rename Sunset.mov" }).click();
  await page.getByLabel("New name for Sunset.mov").fill("   ");
  await page.getByLabel("New name for Sunset.mov").press("Enter");
  await expect(item.locator(".media-name")).toHaveText("Sunset.mov");

  // The video page: the video with Back to /videos.
  await item.locator(".media-name").click();
  await expect(page).toHaveURL(/\/videos\/Sunset\.mov$/);
  const pageVideo = page.getByTestId("page-video");
  await expect
    .poll(() => pageVideo.evaluate((video: HTMLVideoElement) => video.readyState), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(2);
  await expect(page.getByText("Loading video...")).toHaveCount(0);
  await page.getByRole("link", { name: "Back to Video Hub" }).click();
  await expect(page).toHaveURL(/\/videos$/);

  await page.getByRole("button", { name: "Delete Sunset.mov" }).click();
  await answerAppDialog(page, "Delete “Sunset.mov”?", "Delete");
  await expect(page.getByText("No videos uploaded yet.")).toBeVisible();
});

test("video hub: an upload shows its percent; a name already taken fails with the reason", async ({ page }) => {
  await signUpAndLogIn(page, "videos-progress");
  await page.goto("/videos");
  await expect(page.getByText("No videos uploaded yet.")).toBeVisible();
  // Every percent the screen shows while the upload runs.
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { seenProgress: string[] }).seenProgress = []);
    new MutationObserver(() => {
      const text = document.querySelector(".upload-progress")?.textContent;
      if (text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // Chromium's own network throttling (upload at 1 MB/s): the bytes leave slowly enough for the
  // percent to move while the test watches, as on a real connection.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1_000_000,
  });
  const big = webmBytes(2 * 1024 * 1024);
  await page.getByLabel("Choose a video").setInputFiles({ name: "Big clip.webm", mimeType: "video/webm", buffer: big });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.locator(".upload-progress")).toHaveText(/^Uploading\.\.\. \d+%$/);
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Uploading..." })).toBeDisabled();
  // Part-way: a percent above 0 and below 100.
  await expect(page.locator(".upload-progress")).toHaveText(/^Uploading\.\.\. ([1-9]|[1-9]\d)%$/, { timeout: 10_000 });
  const item = page.getByTestId("video-item");
  await expect(item.locator(".media-name")).toHaveText("Big clip.mov", { timeout: 15_000 });
  await expect(page.locator(".upload-progress")).toHaveCount(0);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const seen = [...new Set(await page.evaluate(() => (window as unknown as { seenProgress: string[] }).seenProgress))];
  expect(seen.every((text) => /^Uploading\.\.\. \d+%$/.test(text))).toBe(true);
  // The percent only goes up.
  const percents = seen.map((text) => Number(/(\d+)%/.exec(text)![1]));
  expect(percents).toEqual([...percents].sort((a, b) => a - b));

  // The same name again: refused (409), the screen says so with the server's reason, nothing added.
  await page
    .getByLabel("Choose a video")
    .setInputFiles({ name: "Big clip.mp4", mimeType: "video/mp4", buffer: webmBytes() });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(uploadError(page)).toContainText("Failed to upload video.");
  await expect(uploadError(page)).toContainText("A file with that name already exists");
  await expect(item).toHaveCount(1);
});

test("video hub: playback, rename and delete failures say so", async ({ page }) => {
  await signUpAndLogIn(page, "videos-fail");
  await page.request.post("/api/videos/upload", {
    multipart: { file: { name: "clip.webm", mimeType: "video/webm", buffer: webmBytes() } },
  });
  await page.goto("/videos");
  await page.route("**/api/videos/signed_url?**", (route) => route.fulfill({ status: 500, json: { detail: "boom" } }));
  // Rename and delete post to the screen's own action (a fetcher): those posts never get an answer.
  await page.route(/\/videos\.data/, (route) =>
    route.request().method() === "POST" ? route.abort("failed") : route.continue(),
  );
  await page.getByRole("link", { name: "Play clip.mov" }).click();
  await expect(toast(page, "Playback failed. Please try again.")).toBeVisible();
  await page.getByRole("link", { name: "Rename clip.mov" }).click();
  await page.getByLabel("New name for clip.mov").fill("other");
  await page.getByLabel("New name for clip.mov").press("Enter");
  await expect(page.getByTestId("video-item").locator(".media-rename").getByTestId("rename-error")).toHaveText(
    "Rename failed.",
  );
  await expect(toast(page, "Rename failed.")).toHaveCount(0);
  await page.getByRole("button", { name: "Delete clip.mov" }).click();
  await answerAppDialog(page, "Delete “clip.mov”?", "Delete");
  await expect(toast(page, "Failed to delete video.")).toBeVisible();
  await expect(page.getByTestId("video-item")).toHaveCount(1);
});

test("video page: loading text, then the video; an unknown file says so", async ({ page }) => {
  await signUpAndLogIn(page, "video-page");
  await page.request.post("/api/videos/upload", {
    multipart: { file: { name: "slow.webm", mimeType: "video/webm", buffer: webmBytes() } },
  });
  // Hold the bytes back so the loading state is visible.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/videos/slow.mov", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/videos");
  await page.getByRole("link", { name: "slow.mov" }).first().click();
  await expect(page.getByText("Loading video...")).toBeVisible();
  release();
  await page.goto("/videos/missing.mov");
  await expect(page.getByText("Video not found.")).toBeVisible();
  await page.getByRole("link", { name: "Back to Video Hub" }).click();
  await expect(page).toHaveURL(/\/videos$/);
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`video hub at ${viewport.width}px: generated videos in a section of their own, titled by the prompt, play, download and delete; GET /api/videos stays uploads only`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "videos-generated");
    await page.request.post("/api/videos/upload", {
      multipart: { file: { name: "upload.webm", mimeType: "video/webm", buffer: webmBytes() } },
    });
    await page.goto("/videos");
    const section = page.getByRole("region", { name: "Generated" });
    await expect(section.getByRole("heading", { name: "Generated" })).toBeVisible();
    await expect(section.getByText("No generated videos yet.")).toBeVisible();
    // The section is inside the page's one <main>: a skip link and landmark navigation reach it.
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.getByRole("main").getByRole("region", { name: "Generated" })).toBeVisible();

    const prompt = "A slow pan across a rainy neon street, reflections everywhere";
    const clip = await generateVideo(page.request, prompt);
    await page.reload();
    const item = section.getByTestId("generated-item");
    await expect(item).toHaveCount(1);
    await expect(item.getByRole("heading", { level: 3 })).toHaveText(prompt);
    // Nothing is marked unless "Open in Video Hub" asked for it.
    await expect(item).not.toHaveAttribute("aria-current", "true");
    // The upload stays in the upload card's list, and only there; the generated clip is not in it.
    await expect(page.getByTestId("video-item")).toHaveCount(1);
    await expect(page.getByTestId("video-item").locator(".media-name")).toHaveText("upload.mov");
    const listed = (await (await page.request.get("/api/videos")).json()) as Array<{ filename: string }>;
    expect(listed.map((video) => video.filename)).toEqual(["upload.mov"]);

    // It plays: a <video> whose source answers 200 with the clip.
    const video = item.getByTestId("generated-video");
    const src = await video.getAttribute("src");
    expect(src).toBe(clip.url);
    const answer = await page.request.get(src!);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("video/webm");
    await video.evaluate((element: HTMLVideoElement) => element.play());
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await video.evaluate((element: HTMLVideoElement) => element.error)).toBeNull();

    // It downloads, under its file name.
    const saving = page.waitForEvent("download");
    await item.getByRole("link", { name: `Download “${prompt}”` }).click();
    const saved = await saving;
    expect(saved.suggestedFilename()).toMatch(/^ai-video-a-slow-pan.*\.webm$/);
    expect([...fs.readFileSync((await saved.path())!).subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);

    expect(await shownText(page)).not.toMatch(RAW_ID);

    // Delete: gone from the list and from the store (its link answers 404); the upload stays.
    await item.getByRole("button", { name: `Delete “${prompt}”` }).click();
    await answerAppDialog(page, `Delete “${prompt}”?`, "Delete");
    await expect(toast(page, "Generated video deleted.")).toBeVisible();
    await expect(item).toHaveCount(0);
    await expect(section.getByText("No generated videos yet.")).toBeVisible();
    expect((await page.request.get(src!)).status()).toBe(404);
    await expect(page.getByTestId("video-item")).toHaveCount(1);
  });
}

test("video hub: a generated video's delete that fails says so and keeps it", async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page, "videos-generated-fail");
  const clip = await generateVideo(page.request, "Fog rolling over hills");
  await page.goto("/videos");
  await page.route(/\/videos\.data/, (route) =>
    route.request().method() === "POST" ? route.abort("failed") : route.continue(),
  );
  const item = page.getByTestId("generated-item");
  await item.getByRole("button", { name: "Delete “Fog rolling over hills”" }).click();
  await answerAppDialog(page, "Delete “Fog rolling over hills”?", "Delete");
  await expect(toast(page, "Failed to delete video.")).toBeVisible();
  await expect(item).toHaveCount(1);
  expect((await page.request.get(clip.url)).status()).toBe(200);
});

test("video hub: one person cannot delete another's generated video", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page, "videos-generated-owner");
  const clip = await generateVideo(page.request, "Owner's own clip");
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await signUpAndLogIn(otherPage, "videos-generated-other");
  const refused = await other.request.post("/videos", {
    form: { intent: "delete-generated", id: clip.mediaId, enhanced: "1" },
  });
  expect(refused.status()).toBe(404);
  await other.close();
  expect((await page.request.get(clip.url)).status()).toBe(200);
  await page.goto("/videos");
  await expect(page.getByTestId("generated-item")).toHaveCount(1);
});

test.describe("video hub with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("upload, rename and delete work as plain forms", async ({ page }) => {
    await signUpAndLogIn(page, "videos-nojs");
    await page.goto("/videos");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(uploadError(page)).toHaveText("Please select a video first.");

    await page
      .getByLabel("Choose a video")
      .setInputFiles({ name: "plain.webm", mimeType: "video/webm", buffer: webmBytes(2048) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page).toHaveURL(/\/videos$/);
    // Confirmed as a voice upload is (decision 0044), and the page after the redirect shows an empty picker.
    await expect(page.getByRole("status").filter({ hasText: "✅ Upload successful!" })).toBeVisible();
    expect(
      await page.getByLabel("Choose a video").evaluate((input: HTMLInputElement) => input.files?.length ?? 0),
    ).toBe(0);
    await expect(page.getByTestId("video-item").locator(".media-name")).toHaveText("plain.mov");
    // Without JavaScript, Play opens the video page.
    await expect(page.getByRole("link", { name: "Play plain.mov" })).toHaveAttribute("href", "/videos/plain.mov");

    // The same name again: the page says why the upload failed.
    await page
      .getByLabel("Choose a video")
      .setInputFiles({ name: "plain.mov", mimeType: "video/webm", buffer: webmBytes() });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(uploadError(page)).toContainText("Failed to upload video.");
    await expect(uploadError(page)).toContainText("A file with that name already exists");
    await expect(page.getByTestId("video-item")).toHaveCount(1);

    await page.getByRole("link", { name: "Rename plain.mov" }).click();
    await page.getByLabel("New name for plain.mov").fill("renamed");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("video-item").locator(".media-name")).toHaveText("renamed.mov");

    await page.getByRole("button", { name: "Delete renamed.mov" }).click();
    await page
      .getByRole("alertdialog", { name: "Delete “renamed.mov”?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await expect(page.getByText("No videos uploaded yet.")).toBeVisible();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 667 },
  ]) {
    test(`at ${viewport.width}px a generated video plays, downloads and is deleted by a plain form`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await page.setViewportSize(viewport);
      await signUpAndLogIn(page, "videos-generated-nojs");
      const clip = await generateVideo(page.request, "Waves on black sand");
      await page.goto("/videos");
      const item = page.getByRole("main").getByRole("region", { name: "Generated" }).getByTestId("generated-item");
      await expect(item.getByRole("heading", { level: 3 })).toHaveText("Waves on black sand");
      await expect(page.getByRole("main")).toHaveCount(1);
      await expect(item.getByTestId("generated-video")).toHaveAttribute("src", clip.url);
      expect((await page.request.get(clip.url)).status()).toBe(200);
      const download = item.getByRole("link", { name: "Download “Waves on black sand”" });
      await expect(download).toHaveAttribute("href", clip.url);
      const saving = page.waitForEvent("download");
      await download.click();
      expect((await saving).suggestedFilename()).toMatch(/\.webm$/);
      expect(await shownText(page)).not.toMatch(RAW_ID);

      await item.getByRole("button", { name: "Delete “Waves on black sand”" }).click();
      // Without JavaScript the Video Hub asks on its page first.
      await expect(page).toHaveURL(/delete-generated=/);
      const answer = page.waitForResponse(
        (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/videos",
      );
      await page
        .getByRole("alertdialog", { name: "Delete “Waves on black sand”?" })
        .getByRole("button", { name: "Delete" })
        .click();
      expect((await answer).status()).toBe(302);
      await expect(page).toHaveURL(/\/videos$/);
      await expect(page.getByTestId("media-outcome")).toHaveText("Generated video deleted.");
      await expect(item).toHaveCount(0);
      await expect(page.getByText("No generated videos yet.")).toBeVisible();
      expect((await page.request.get(clip.url)).status()).toBe(404);
    });
  }
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`video hub at ${viewport.width}x${viewport.height}: "select a video first" sits under the picker once; an upload confirms as the voices' does and clears the picker`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "videos-alike");
    await page.goto("/videos");
    const picker = page.getByLabel("Choose a video");

    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(uploadError(page)).toHaveText("Please select a video first.");
    await expect(picker).toHaveAttribute("aria-invalid", "true");
    await expect(picker).toHaveAttribute("aria-describedby", (await uploadError(page).getAttribute("id"))!);
    await expect(page.getByText("Please select a video first.")).toHaveCount(1);
    await expect(toast(page, "Please select a video first.")).toHaveCount(0);
    // In the picker's own box, under the input.
    const pickerBox = (await picker.boundingBox())!;
    const errorBox = (await uploadError(page).boundingBox())!;
    const zoneBox = (await page.getByTestId("drop-zone").boundingBox())!;
    expect(errorBox.y).toBeGreaterThanOrEqual(pickerBox.y + pickerBox.height);
    expect(errorBox.y + errorBox.height).toBeLessThanOrEqual(zoneBox.y + zoneBox.height);

    await picker.setInputFiles({ name: "Harbour.webm", mimeType: "video/webm", buffer: webmBytes(2048) });
    await expect(uploadError(page)).toHaveCount(0);
    await expect(page.getByTestId("drop-zone")).toContainText("Chosen: Harbour.webm");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(toast(page, "✅ Upload successful!")).toBeVisible();
    await expect(page.getByTestId("video-item").locator(".media-name")).toHaveText("Harbour.mov");
    // The picker is empty again: no file, no "Chosen: …".
    await expect(page.getByTestId("drop-zone")).not.toContainText("Chosen:");
    expect(await picker.evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);
  });
}
