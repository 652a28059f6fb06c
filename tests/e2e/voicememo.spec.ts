import fs from "node:fs/promises";
import { expect, test } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";
import { dismissAppAlert } from "../support/app-dialog";
import { recordedMoreThan, watchRecorders } from "../support/e2e-media";

const DENIED_TEXT = "🎙️ Microphone access denied or unsupported browser.";

test.describe("voice memo", () => {
  test("records with a running time, plays back, downloads as .m4a (audio/mp4), deletes", async ({ page }) => {
    await signUpAndLogIn(page, "memo");
    // Keep the streams handed out, to check the microphone is released after Stop.
    await page.addInitScript(() => {
      const streams: MediaStream[] = [];
      (window as unknown as { __streams: MediaStream[] }).__streams = streams;
      const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = async (constraints) => {
        const stream = await original(constraints);
        streams.push(stream);
        return stream;
      };
    });
    await watchRecorders(page);
    await page.goto("/voicememo");
    await page.getByRole("button", { name: "Start Recording" }).click();
    const timer = page.getByRole("timer");
    await expect(timer).toHaveText("0:00");
    await expect(timer).toHaveText("0:01", { timeout: 3000 });
    // Stopped once the encoder has its first second out: a memo long enough to play.
    await recordedMoreThan(page);
    await page.getByRole("button", { name: "Stop Recording" }).click();

    const audio = page.getByLabel("Voice memo playback");
    await expect(audio).toHaveAttribute("src", /^blob:/);
    const tracks = await page.evaluate(() =>
      (window as unknown as { __streams: MediaStream[] }).__streams.flatMap((stream) =>
        stream.getTracks().map((track) => track.readyState),
      ),
    );
    expect(tracks).toEqual(["ended"]);

    // It plays: time advances.
    await audio.evaluate((element: HTMLAudioElement) => element.play());
    await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime)).toBeGreaterThan(0.2);
    await audio.evaluate((element: HTMLAudioElement) => element.pause());

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download Memo" }).click();
    const memo = await download;
    expect(memo.suggestedFilename()).toMatch(/^voice-memo-\d{4}-\d{2}-\d{2}-\d{6}\.m4a$/);
    const bytes = await fs.readFile((await memo.path())!);
    // An MP4 file starts with its ftyp box.
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(bytes.length).toBeGreaterThan(1000);

    await page.getByRole("button", { name: "Delete Memo" }).click();
    await expect(audio).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Download Memo" })).toHaveCount(0);
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 667 },
  ])
    test(`a refused microphone says so in the app's alert and in the page (${viewport.width}×${viewport.height})`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signUpAndLogIn(page, "memo-denied");
      await page.addInitScript(() => {
        navigator.mediaDevices.getUserMedia = () =>
          Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
      });
      await page.goto("/voicememo");
      const start = page.getByRole("button", { name: "Start Recording" });
      await start.click();
      // The app's alert, SPEC's words; OK gives the focus back to Start Recording.
      await dismissAppAlert(page, DENIED_TEXT);
      await expect(start).toBeFocused();
      await expect(page.getByRole("alert")).toHaveText(DENIED_TEXT);
      await expect(start).toBeEnabled();
    });
});

test.describe("voice memo with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("says it needs JavaScript; needs a session", async ({ page }) => {
    await page.goto("/voicememo");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fvoicememo$/);
    await signUpAndLogIn(page, "memo-nojs");
    await page.goto("/voicememo");
    // (Playwright's text matching skips <noscript>, so the message is found by its class.)
    const notice = page.locator(".requires-javascript");
    await expect(notice).toBeVisible();
    await expect(notice).toHaveText(
      "Voice memo recording runs in your browser and needs JavaScript. Turn JavaScript on and reload this page to use it.",
    );
    await expect(page.getByRole("button", { name: "Start Recording" })).toHaveCount(0);
  });
});
