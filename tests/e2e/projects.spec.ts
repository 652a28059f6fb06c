import { expect, test, type Page } from "../support/e2e-test";
import { mp3Frames } from "../support/media";
import { signUpAndLogIn } from "../support/e2e-session";
import { answerAppDialog } from "../support/app-dialog";
import { JOB_WAIT_MS } from "../support/e2e-generated-video";

const card = (page: Page, title: string) =>
  page.getByTestId("project-card").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
/** The four media icons of a card (or of the editor), as slot -> present. */
async function icons(scope: ReturnType<Page["locator"]>) {
  const entries = await scope
    .locator(".project-media-icon")
    .evaluateAll((items) =>
      items.map((item) => [(item as HTMLElement).dataset.slot, (item as HTMLElement).dataset.present === "true"]),
    );
  return Object.fromEntries(entries);
}
/** The project's music: the Media group's select of the bundled tracks (docs/screens.md, "Project editor: media and generators"). */
const musicChoice = (page: Page) => page.getByRole("group", { name: "Media" }).getByLabel("Music", { exact: true });

test("projects: create with validation, edit, a generator's voice and a track attached light their icons, delete", async ({
  page,
}) => {
  await signUpAndLogIn(page, "projects");
  await page.goto("/dashboard");
  // The dashboard's own Projects tool (the shell's nav has one too).
  await page.getByRole("main").getByRole("link", { name: "Projects", exact: true }).click();
  await page.waitForURL("**/projects");
  await expect(page.getByText("No projects yet. Create your first one!")).toBeVisible();

  await page.getByRole("link", { name: "Create New Project" }).click();
  await page.waitForURL("**/project/new");
  await expect(page.getByRole("heading", { name: "New Project" })).toBeVisible();
  // docs/screens.md#validation-rules: the title is required (said beside the field).
  await page.getByRole("button", { name: "Save Project" }).click();
  await expect(page.getByTestId("project-title-error")).toHaveText("Title required");
  await expect(page).toHaveURL(/\/project\/new$/);

  await page.getByLabel("Title").fill("Launch film");
  await page.getByRole("button", { name: "Save Project" }).click();
  await expect(page.getByTestId("project-status")).toHaveText("Project saved successfully!");
  // docs/screens.md#states-and-transitions: then /projects after 0.8 s.
  await page.waitForURL("**/projects");
  await expect(card(page, "Launch film")).toBeVisible();
  await expect(card(page, "Launch film").getByText("No description provided.")).toBeVisible();
  await expect
    .poll(() => icons(card(page, "Launch film")))
    .toEqual({ voice: false, music: false, video: false, image: false });

  // Edit: description, and the Voice generator's output attached.
  await card(page, "Launch film").getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Edit Project" })).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("Launch film");
  await page.getByLabel("Description").fill("A short film about launch day.");

  const voice = page.getByTestId("generator-voice");
  await voice.locator("summary").click();
  // Empty input is ignored: no request, no message.
  let generatorCalls = 0;
  page.on("request", (request) => {
    if (request.url().includes("/api/creative-tools/")) generatorCalls++;
  });
  await voice.getByRole("button", { name: "Generate Voice" }).click();
  await expect(voice.getByRole("status")).toHaveCount(0);
  expect(generatorCalls).toBe(0);

  await voice.getByLabel("Text to speak").fill("Welcome to launch day.");
  await voice.getByRole("button", { name: "Generate Voice" }).click();
  await expect(voice.getByText("Voice generated successfully!")).toBeVisible({ timeout: 15_000 });
  const audio = voice.getByLabel("Generated voice");
  await expect(audio).toBeVisible();
  const audioUrl = await audio.getAttribute("src");
  const audioResponse = await page.request.get(audioUrl!);
  expect(audioResponse.status()).toBe(200);
  expect(audioResponse.headers()["content-type"]).toBe("audio/wav");

  const attached = page.waitForResponse(
    (response) => response.request().method() === "POST" && /\/project\/[^/]+\.data/.test(response.url()),
  );
  await voice.getByRole("button", { name: "Attach voice to project" }).click();
  expect((await attached).status()).toBe(200);
  await expect(page.getByText("Voice attached to the project")).toBeVisible();
  await expect(page.getByLabel("Voice", { exact: true })).toHaveValue(/.+/);

  // Music is marked coming soon with its three players; the project's track is chosen in the Media group.
  const music = page.getByTestId("generator-music");
  await music.locator("summary").click();
  await expect(music.getByText("Music generation is coming soon.", { exact: false })).toBeVisible();
  await expect(music.locator("audio")).toHaveCount(3);
  await musicChoice(page).selectOption("demo2");
  await expect
    .poll(() => icons(page.locator(".project-media")))
    .toEqual({ voice: true, music: true, video: false, image: false });

  await page.getByRole("button", { name: "Save Project" }).click();
  await expect(page.getByTestId("project-status")).toHaveText("Project saved successfully!");
  await page.waitForURL("**/projects");
  const saved = card(page, "Launch film");
  await expect(saved.getByText("A short film about launch day.")).toBeVisible();
  await expect.poll(() => icons(saved)).toEqual({ voice: true, music: true, video: false, image: false });
  await page.reload();
  await expect
    .poll(() => icons(card(page, "Launch film")))
    .toEqual({ voice: true, music: true, video: false, image: false });

  // Delete asks first: dismissing keeps the project, accepting removes it.
  await saved.getByRole("button", { name: "Delete Launch film" }).click();
  await answerAppDialog(page, "Delete “Launch film”?", "Cancel");
  await expect(card(page, "Launch film")).toBeVisible();
  const deleted = page.waitForResponse(
    (response) => response.request().method() === "POST" && response.url().includes("/projects.data"),
  );
  await card(page, "Launch film").getByRole("button", { name: "Delete Launch film" }).click();
  await answerAppDialog(page, "Delete “Launch film”?", "Delete");
  expect((await deleted).status()).toBe(200);
  await expect(card(page, "Launch film")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("No projects yet. Create your first one!")).toBeVisible();
});

test("project generators: a script goes into the description, an AI video is generated and attached", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page, "projects-gen");
  await page.goto("/project/new");
  await page.getByLabel("Title").fill("Generated");

  const script = page.getByTestId("generator-script");
  await script.locator("summary").click();
  await script.getByLabel("What is the script about?").fill("How do I use the drawing pad?");
  await script.getByRole("button", { name: "Generate Script" }).click();
  await expect(script.getByText("Script generated successfully!")).toBeVisible();
  const text = (await script.getByTestId("script-result").textContent()) ?? "";
  expect(text.toLowerCase()).toContain("drawing pad");
  await script.getByRole("button", { name: "Add to description" }).click();
  await expect(page.getByLabel("Description")).toHaveValue(text);

  const video = page.getByTestId("generator-video");
  await video.locator("summary").click();
  await video.getByLabel("Describe the video").fill("a rocket over a calm sea");
  await video.getByRole("button", { name: "Generate Video" }).click();
  await expect(video.getByLabel("Video progress")).toBeVisible();
  // The generator follows its job until it ends (no poll budget), which may wait behind other tests' jobs.
  await expect(video.getByText("Video generated successfully!")).toBeVisible({ timeout: JOB_WAIT_MS });
  await expect(video.getByLabel("Generated video")).toBeVisible();
  // On a new project the attachment is kept until Save Project.
  await video.getByRole("button", { name: "Attach video to project" }).click();
  await expect(
    page.getByText("Video attached: it is saved with the project when you press Save Project."),
  ).toBeVisible();

  await page.getByRole("button", { name: "Save Project" }).click();
  await page.waitForURL("**/projects");
  await expect
    .poll(() => icons(card(page, "Generated")))
    .toEqual({ voice: false, music: false, video: true, image: false });
  await expect(card(page, "Generated").getByText("drawing pad", { exact: false })).toBeVisible();
});

test("projects: failures say so", async ({ page, browser }) => {
  await signUpAndLogIn(page, "projects-fail");

  // A generator failure.
  await page.goto("/project/new");
  await page.route("**/api/creative-tools/assistant/generate", (route) =>
    route.fulfill({ status: 502, json: { detail: "Something went wrong." } }),
  );
  const script = page.getByTestId("generator-script");
  await script.locator("summary").click();
  await script.getByLabel("What is the script about?").fill("anything");
  await script.getByRole("button", { name: "Generate Script" }).click();
  await expect(script.getByText("Failed to generate Script")).toBeVisible();

  // An unknown project (or another user's) cannot be loaded.
  await page.goto("/project/no-such-project");
  await expect(page.getByText("Failed to load project")).toBeVisible();

  // A delete that fails (the project is already gone) brings the card back and says so.
  const created = await page.request.post("/api/project/create", { data: { title: "Gone soon" } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  await page.goto("/projects");
  await expect(card(page, "Gone soon")).toBeVisible();
  expect((await page.request.delete(`/api/project/${id}`)).status()).toBe(200);
  await card(page, "Gone soon").getByRole("button", { name: "Delete Gone soon" }).click();
  await answerAppDialog(page, "Delete “Gone soon”?", "Delete");
  await expect(page.getByText("Failed to delete project.")).toBeVisible();
  await expect(card(page, "Gone soon")).toBeVisible();

  // A save that fails: the project was deleted meanwhile.
  const other = await page.request.post("/api/project/create", { data: { title: "Also gone" } });
  const otherId = (await other.json()).id;
  await page.goto(`/project/${otherId}`);
  await expect(page.getByLabel("Title")).toHaveValue("Also gone");
  expect((await page.request.delete(`/api/project/${otherId}`)).status()).toBe(200);
  await page.getByRole("button", { name: "Save Project" }).click();
  await expect(page.getByTestId("project-status")).toContainText("Failed to save project");
  await expect(page).toHaveURL(new RegExp(`/project/${otherId}$`));

  // Without a session: "Please log in again." and the login screen.
  const anonymous = await browser.newPage();
  await anonymous.goto("/projects");
  await anonymous.waitForURL(/\/login\?redirectTo=%2Fprojects/);
  // In the app's alert (and the toast).
  await expect(anonymous.getByRole("alertdialog")).toContainText("Please log in again.");
  await anonymous.close();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("projects: create, validate, attach a voice clip and a track, edit and delete as plain forms", async ({
    page,
  }) => {
    await signUpAndLogIn(page, "projects-nojs");
    const upload = await page.request.post("/api/voice/upload", {
      multipart: { file: { name: "Narration.mp3", mimeType: "audio/mpeg", buffer: mp3Frames() } },
    });
    expect(upload.status()).toBe(201);

    await page.goto("/projects");
    await page.getByRole("link", { name: "Create New Project" }).click();
    // (Playwright's text matching skips <noscript>, so the message is found by its class.)
    await expect(page.locator(".project-generators .requires-javascript")).toContainText(
      "The generators run in your browser and need JavaScript.",
    );
    await expect(page.getByRole("button", { name: "Generate Voice" })).toHaveCount(0);

    // The server checks the title too (the browser's `required` is bypassed here).
    await page.getByLabel("Title").evaluate((input: HTMLInputElement) => (input.required = false));
    await page.getByLabel("Title").fill("   ");
    await page.getByLabel("Description").fill("Kept after the error");
    await page.getByRole("button", { name: "Save Project" }).click();
    await expect(page.getByTestId("project-title-error")).toHaveText("Title required");
    await expect(page.getByText("Title required")).toHaveCount(1);
    await expect(page.getByLabel("Description")).toHaveValue("Kept after the error");

    await page.getByLabel("Title").fill("Plain project");
    // The Media group's music is the form's field, also without JavaScript.
    await musicChoice(page).selectOption({ label: "Epic Angry Uplifting (bundled track)" });
    await page.getByRole("button", { name: "Save Project" }).click();
    await page.waitForURL("**/projects");
    await expect(page.getByText("Project saved successfully!")).toBeVisible();
    await expect
      .poll(() => icons(card(page, "Plain project")))
      .toEqual({ voice: false, music: true, video: false, image: false });
    // The card names the track, not its file.
    await expect(card(page, "Plain project").locator('[data-slot="music"] .visually-hidden')).toHaveText(
      "Music: Epic Angry Uplifting",
    );
    await expect(card(page, "Plain project").getByText("Kept after the error")).toBeVisible();

    await card(page, "Plain project").getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Title").fill("Plain project, edited");
    await page.getByLabel("Voice", { exact: true }).selectOption({ label: "Narration.mp3 (voice clip)" });
    await page.getByRole("button", { name: "Save Project" }).click();
    await page.waitForURL("**/projects");
    await expect
      .poll(() => icons(card(page, "Plain project, edited")))
      .toEqual({
        voice: true,
        music: true,
        video: false,
        image: false,
      });

    // Delete asks first, also without JavaScript.
    await card(page, "Plain project, edited").getByRole("button", { name: "Delete Plain project, edited" }).click();
    await expect(page.getByRole("alertdialog", { name: "Delete “Plain project, edited”?" })).toBeVisible();
    await page.getByRole("alertdialog").getByRole("link", { name: "Cancel", exact: true }).click();
    await expect(card(page, "Plain project, edited")).toBeVisible();
    await card(page, "Plain project, edited").getByRole("button", { name: "Delete Plain project, edited" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.waitForURL("**/projects");
    await expect(page.getByText("Project deleted")).toBeVisible();
    await expect(card(page, "Plain project, edited")).toHaveCount(0);
  });
});

/** Every accessible name or hidden label in the page that names a bundled track by its file (demo1.mp3). */
const fileNamedLabels = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("[aria-label], [title], .visually-hidden")]
      .map((element) => [
        element.getAttribute("aria-label"),
        element.getAttribute("title"),
        element.classList.contains("visually-hidden") ? element.textContent : null,
      ])
      .flat()
      .filter((text): text is string => !!text && /demo\d/i.test(text)),
  );

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`project editor at ${viewport.width}x${viewport.height}: the title's error goes once fixed, one music control, labels name the track, generators closed and still usable`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "project-polish");
    await page.goto("/project/new");
    const title = page.getByLabel("Title");

    // Closed generators: at 1280x900 the whole form with its Save fits the first screen.
    await expect(page.getByRole("button", { name: "Generate Script" })).toBeHidden();
    const save = page.getByRole("button", { name: "Save Project" });
    if (viewport.width >= 1024) {
      const box = (await save.boundingBox())!;
      expect(box.y + box.height, "Save Project within the first screen").toBeLessThanOrEqual(viewport.height);
      const form = (await page.getByRole("form", { name: "Project" }).boundingBox())!;
      expect(form.y + form.height, "the form within the first screen").toBeLessThanOrEqual(viewport.height);
    }

    // "Title required" beside the field, once; it goes as soon as a title is typed.
    await save.click();
    const error = page.getByTestId("project-title-error");
    await expect(error).toHaveText("Title required");
    await expect(title).toHaveAttribute("aria-invalid", "true");
    await expect(title).toHaveAttribute("aria-describedby", "project-title-error");
    await expect(page.getByText("Title required")).toHaveCount(1);
    await title.fill("Polished");
    await expect(error).toHaveCount(0);
    await expect(page.getByText("Title required")).toHaveCount(0);
    await expect(title).toHaveAttribute("aria-invalid", "false");

    // One control for the project's music: the Media group's select (the generator's players only play).
    await expect(page.getByRole("combobox", { name: /music/i })).toHaveCount(1);
    await expect(page.getByRole("radio")).toHaveCount(0);
    await expect(page.getByText("Music (coming soon)")).toHaveCount(1);
    const music = page.getByTestId("generator-music");
    await music.locator("summary").click();
    await musicChoice(page).selectOption({ label: "Deep Abstract Ambient (bundled track)" });
    // Labels carry the track's name.
    await expect(music.getByLabel("Play Deep Abstract Ambient")).toHaveAttribute("src", /demo2\.mp3$/);
    await expect(page.locator('.project-media [data-slot="music"].project-media-icon .visually-hidden')).toHaveText(
      "Music: Deep Abstract Ambient",
    );
    expect(await fileNamedLabels(page)).toEqual([]);

    // The unfolded generators still work.
    const script = page.getByTestId("generator-script");
    await script.locator("summary").click();
    await script.getByLabel("What is the script about?").fill("How do I use the drawing pad?");
    await script.getByRole("button", { name: "Generate Script" }).click();
    await expect(script.getByText("Script generated successfully!")).toBeVisible();
    await script.getByRole("button", { name: "Add to description" }).click();
    await expect(page.getByLabel("Description")).not.toHaveValue("");

    // Saved: no error left; the card on /projects names the track too.
    await save.click();
    await expect(page.getByTestId("project-status")).toHaveText("Project saved successfully!");
    await expect(error).toHaveCount(0);
    await page.waitForURL("**/projects");
    const saved = card(page, "Polished");
    await expect(saved.locator('[data-slot="music"] .visually-hidden')).toHaveText("Music: Deep Abstract Ambient");
    await expect(saved.locator('[data-slot="music"]')).toHaveAttribute("title", "Music: Deep Abstract Ambient");
    expect(await fileNamedLabels(page)).toEqual([]);
  });
}
