import { expect, test } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

const TRACKS = ["8d Nirvana Stream", "Deep Abstract Ambient", "Epic Angry Uplifting"];

test("music: three bundled tracks, play/pause with a Now Playing line, one at a time, and Download", async ({
  page,
}) => {
  await signUpAndLogIn(page, "music");
  await page.goto("/music");
  const tracks = page.getByTestId("music-track");
  await expect(tracks.locator(".media-name")).toHaveText(TRACKS);
  await expect(page.getByTestId("now-playing")).toHaveText("Now Playing: None");

  await page.getByRole("button", { name: "Play Deep Abstract Ambient" }).click();
  await expect(page.getByTestId("now-playing")).toHaveText("Now Playing: Deep Abstract Ambient");
  const ambient = tracks.nth(1).locator("audio");
  await expect
    .poll(() => ambient.evaluate((audio: HTMLAudioElement) => audio.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0.3);
  // Real music of at least 30 seconds.
  expect(await ambient.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeGreaterThan(30);

  // Starting another track pauses the first.
  await page.getByRole("button", { name: "Play Epic Angry Uplifting" }).click();
  await expect(page.getByTestId("now-playing")).toHaveText("Now Playing: Epic Angry Uplifting");
  expect(await ambient.evaluate((audio: HTMLAudioElement) => audio.paused)).toBe(true);
  await page.getByRole("button", { name: "Pause Epic Angry Uplifting" }).click();
  await expect(page.getByTestId("now-playing")).toHaveText("Now Playing: Epic Angry Uplifting (paused)");

  const download = page.getByRole("link", { name: "Download 8d Nirvana Stream" });
  await expect(download).toHaveAttribute("href", "/static/music-demos/demo1.mp3");
  await expect(download).toHaveAttribute("download", "8d Nirvana Stream.mp3");
  for (const n of [1, 2, 3]) {
    const response = await page.request.get(`/static/music-demos/demo${n}.mp3`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("audio/mpeg");
  }
});

test.describe("music with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("each track has a native player and a download link", async ({ page }) => {
    await signUpAndLogIn(page, "music-nojs");
    await page.goto("/music");
    await expect(page.getByTestId("music-track").locator("audio[controls]")).toHaveCount(3);
    await expect(page.getByRole("link", { name: /Download/ })).toHaveCount(3);
  });
});

test("the media screens need a session", async ({ page }) => {
  for (const path of ["/music", "/voices", "/videos", "/videos/any.mov"]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(path).replace(/\./g, "\\.")}$`));
  }
});
