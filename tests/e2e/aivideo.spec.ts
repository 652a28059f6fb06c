import { expect, test } from "@playwright/test";
import { signUpAndLogIn } from "./helpers";

test("AI video: a job runs to '✅ Completed!' with the progress bar, and the clip plays", async ({ page }) => {
  await signUpAndLogIn(page, "aivideo");
  const created: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/aivideo/") created.push(request.postData() ?? "");
  });
  const health = page.waitForResponse((response) => response.url().endsWith("/api/health"));
  await page.goto("/aivideo");
  expect((await health).status()).toBe(200);
  await expect(page.getByTestId("test-mode-badge")).toHaveText("🧪 Test Mode");

  // SPEC §5: an empty prompt is ignored.
  await page.getByRole("button", { name: "Generate Video" }).click();
  await page.waitForTimeout(300);
  expect(created).toHaveLength(0);
  await expect(page.getByTestId("video-status")).toHaveCount(0);

  await page.getByLabel("Prompt").fill("Lanterns drifting over a dark lake");
  await page.getByRole("button", { name: "Generate Video" }).click();
  await expect(page.getByTestId("generation-id")).toHaveText(/^[0-9a-f-]{36}$/);

  // Follow the screen: status texts, and the bar (only while queued/processing/finishing) with its tone.
  const texts = new Set<string>();
  const tones = new Set<string>();
  const status = page.getByTestId("video-status");
  const bar = page.getByRole("progressbar", { name: "Video progress" });
  const started = Date.now();
  while (Date.now() - started < 20_000) {
    const text = (await status.textContent()) ?? "";
    texts.add(text);
    if (await bar.count()) {
      tones.add((await bar.getAttribute("data-tone")) ?? "");
      expect(["Queued...", "Processing video...", "Finalizing..."]).toContain(text);
    }
    if (text === "✅ Completed!") break;
    await page.waitForTimeout(150);
  }
  expect([...texts]).toContain("✅ Completed!");
  expect([...texts]).toContain("Processing video...");
  expect(tones.has("low") && tones.has("mid")).toBe(true);
  await expect(bar).toHaveCount(0);
  expect(created).toHaveLength(1);

  // The preview plays.
  const video = page.getByTestId("video-preview");
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth), { timeout: 10_000 }).toBe(640);
  expect(await video.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(3);
  const first = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 5000 }).toBeGreaterThan(first);
  expect(await video.evaluate((element: HTMLVideoElement) => element.error)).toBeNull();
});

test("AI video: a poll error stops polling with '❌ Error generating video.'", async ({ page }) => {
  await signUpAndLogIn(page, "aivideo-error");
  let polls = 0;
  await page.route("**/api/aivideo/status/**", (route) => {
    polls++;
    return route.fulfill({ status: 500, json: { detail: "broken" } });
  });
  await page.goto("/aivideo");
  await page.getByLabel("Prompt").fill("will fail");
  await page.getByRole("button", { name: "Generate Video" }).click();
  await expect(page.getByTestId("video-status")).toHaveText("❌ Error generating video.");
  await page.waitForTimeout(2500);
  expect(polls).toBe(1);
  await expect(page.getByRole("progressbar")).toHaveCount(0);
});

test("AI video: after more than 15 polls the job times out ('⚠️ Timed out.')", async ({ page }) => {
  test.setTimeout(45_000);
  await signUpAndLogIn(page, "aivideo-timeout");
  let polls = 0;
  await page.route("**/api/aivideo/status/**", (route) => {
    polls++;
    return route.fulfill({ json: { id: "x", status: "processing", progress: 0.95, url: null } });
  });
  await page.goto("/aivideo");
  await page.getByLabel("Prompt").fill("never finishes");
  await page.getByRole("button", { name: "Generate Video" }).click();
  await expect(page.getByRole("progressbar")).toHaveAttribute("data-tone", "high");
  await expect(page.getByTestId("video-status")).toHaveText("⚠️ Timed out.", { timeout: 25_000 });
  await page.waitForTimeout(1500);
  expect(polls).toBe(15);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("AI video: a plain form post starts the job; the page refreshes itself until it is done", async ({ page }) => {
    await signUpAndLogIn(page, "aivideo-nojs");
    await page.goto("/aivideo");
    await page.getByRole("button", { name: "Generate Video" }).click();
    await expect(page).toHaveURL(/\/aivideo$/);
    await page.getByLabel("Prompt").fill("A kite over the dunes");
    await page.getByRole("button", { name: "Generate Video" }).click();
    await expect(page).toHaveURL(/\/aivideo\?job=[0-9a-f-]{36}$/);
    await expect(page.getByTestId("video-status")).toHaveText(/Generating...|Queued...|Processing video...|Finalizing.../);
    await expect(page.getByTestId("video-status")).toHaveText("✅ Completed!", { timeout: 20_000 });
    const src = await page.getByTestId("video-preview").getAttribute("src");
    expect((await page.request.get(src!)).headers()["content-type"]).toBe("video/webm");
  });
});
