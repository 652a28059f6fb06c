import { expect, test, type Page } from "../support/e2e-test";
import { mp3Frames } from "../support/media";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * The project editor with room (docs/screens.md, "Project editor: media and generators"): choosers
 * at least 280 px wide with whole names and players, music in the Media group, each generator open
 * in one click, a script that names projects by their titles; and the same form without JavaScript.
 */

const LONG_NAME = "Intro take 2 for the harbour film, the long version with the gulls.mp3";

/** A voice clip with a long name and a project with a description the offline assistant can find. */
async function projectWithVoice(page: Page) {
  const voice = await page.request.post("/api/voice/upload", {
    multipart: { file: { name: LONG_NAME, mimeType: "audio/mpeg", buffer: mp3Frames(20) } },
  });
  expect(voice.status()).toBe(201);
  const project = await page.request.post("/api/project/create", {
    data: { title: "Harbour film", description: "Gulls over the lighthouse at dawn" },
  });
  expect(project.status()).toBe(201);
  return (await project.json()).id as string;
}

/** Hydrated: the generators that need JavaScript are there (a choice made before would be reset). */
const hydrated = (page: Page) => expect(page.getByTestId("generator-script")).toBeVisible();

/** Whether an element shows its whole text (nothing cut off sideways). */
const whole = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((element) => element.scrollWidth <= element.clientWidth);

const media = (page: Page) => page.getByRole("group", { name: "Media" });

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test.describe(`project editor at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("choosers at least 280 px wide (the whole column on a phone) with whole names and whole players", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "project-room");
      const id = await projectWithVoice(page);
      await page.goto(`/project/${id}`);
      await hydrated(page);
      const voice = media(page).getByLabel("Voice", { exact: true });
      await voice.selectOption({ index: 1 });

      for (const slot of ["voice", "music", "video", "image"]) {
        const box = (await page.getByTestId(`slot-${slot}`).boundingBox())!;
        expect(box.width, slot).toBeGreaterThanOrEqual(280);
      }
      if (viewport.width < 600) {
        // A phone: each chooser spans the Media group.
        const group = (await media(page).boundingBox())!;
        const slot = (await page.getByTestId("slot-voice").boundingBox())!;
        expect(slot.width).toBeGreaterThan(group.width - 40);
      }
      // The chosen name whole (wrapped, never cut), and its player as wide as the chooser.
      const name = page.getByTestId("slot-voice-name");
      await expect(name).toHaveText(`${LONG_NAME} (voice clip)`);
      expect(await whole(page, "slot-voice-name")).toBe(true);
      const player = media(page).getByLabel(`Voice: ${LONG_NAME}`);
      const playerBox = (await player.boundingBox())!;
      const slotBox = (await page.getByTestId("slot-voice").boundingBox())!;
      expect(playerBox.width).toBeGreaterThanOrEqual(slotBox.width - 1);
      expect(playerBox.x + playerBox.width).toBeLessThanOrEqual(slotBox.x + slotBox.width + 1);
      // Nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });

    test("music is chosen in the Media group; the Music generator keeps its three demo players, coming soon", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "project-music");
      const id = await projectWithVoice(page);
      await page.goto(`/project/${id}`);
      await hydrated(page);
      const music = media(page).getByLabel("Music", { exact: true });
      await expect(music).toBeVisible();
      await music.selectOption({ label: "Deep Abstract Ambient (bundled track)" });
      await expect(page.getByTestId("slot-music-name")).toHaveText("Deep Abstract Ambient (bundled track)");
      await expect(media(page).getByLabel("Music: Deep Abstract Ambient")).toHaveAttribute("src", /demo2\.mp3$/);

      const generator = page.getByTestId("generator-music");
      await expect(generator.locator("> summary")).toHaveText("Music (coming soon)");
      await generator.locator("> summary").click();
      await expect(generator.locator("audio")).toHaveCount(3);
      // "Use for the project" sets the Media group's choice.
      await generator.getByRole("button", { name: "Use Epic Angry Uplifting for the project" }).click();
      await expect(music).toHaveValue("demo3");

      await page.getByRole("button", { name: "Save Project" }).click();
      await expect(page.getByTestId("project-status")).toHaveText("Project saved successfully!");
      await expect
        .poll(async () => (await (await page.request.get(`/api/project/${id}`)).json()).music_file)
        .toBe("demo3.mp3");
    });

    test("each generator opens with one click, and a script names projects by their titles", async ({ page }) => {
      await signUpAndLogIn(page, "project-generators");
      const id = await projectWithVoice(page);
      await page.goto(`/project/${id}`);
      await hydrated(page);
      for (const name of ["script", "voice", "music", "image", "video"]) {
        const generator = page.getByTestId(`generator-${name}`);
        await expect(generator).toBeVisible();
        await expect(generator).not.toHaveAttribute("open", "");
        await generator.locator("> summary").click();
        await expect(generator, name).toHaveAttribute("open", "");
        // Opened in that one click: its first field or player shows.
        await expect(generator.locator("textarea, audio").first(), name).toBeVisible();
      }
      const script = page.getByTestId("generator-script");
      await script.getByLabel("What is the script about?").fill("Which project has the gulls and the lighthouse?");
      await script.getByRole("button", { name: "Generate Script" }).click();
      await expect(script.getByText("Script generated successfully!")).toBeVisible();
      const result = script.getByTestId("script-result");
      await expect(result).toContainText('Project "Harbour film"');
      await expect(result).not.toContainText("/project/");
      await expect(result).not.toContainText(id);
    });
  });
}

test.describe("project editor without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the Media group's four choices, music included, are the form's fields", async ({ page }) => {
    await signUpAndLogIn(page, "project-room-nojs");
    const id = await projectWithVoice(page);
    await page.goto(`/project/${id}`);
    await media(page)
      .getByLabel("Voice", { exact: true })
      .selectOption({ label: `${LONG_NAME} (voice clip)` });
    await media(page).getByLabel("Music", { exact: true }).selectOption({ label: "8d Nirvana Stream (bundled track)" });
    // The Music generator opens without a script too: its three players.
    await page.getByTestId("generator-music").locator("> summary").click();
    await expect(page.getByTestId("generator-music").locator("audio")).toHaveCount(3);
    await page.getByRole("button", { name: "Save Project" }).click();
    await page.waitForURL("**/projects");
    const saved = await (await page.request.get(`/api/project/${id}`)).json();
    expect(saved).toMatchObject({ voice_file: LONG_NAME, music_file: "demo1.mp3" });
    await page.goto(`/project/${id}`);
    await expect(page.getByTestId("slot-music-name")).toHaveText("8d Nirvana Stream (bundled track)");
    await expect(page.getByTestId("slot-voice-name")).toHaveText(`${LONG_NAME} (voice clip)`);
  });
});
