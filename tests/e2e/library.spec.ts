import { expect, test, type Page } from "../support/e2e-test";
import { isoMedia, mp3Frames, PNG_BYTES, webmBytes } from "../support/media";
import { signUpAndLogIn } from "../support/e2e-session";
import { answerAppDialog, appDialog } from "../support/app-dialog";
import { recordedMoreThan, tapCapture, watchRecorders } from "../support/e2e-media";

/** Saves a file to the signed-in person's library through the API (as "Save to library" does). */
async function saveFile(page: Page, kind: "photo" | "clip" | "memo", name: string, buffer: Buffer) {
  const answer = await page.request.post("/api/library/upload", {
    multipart: { kind, file: { name, mimeType: "application/octet-stream", buffer } },
  });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as { id: string; name: string };
}

const items = (page: Page) => page.getByTestId("library-item");

const LONG_PROMPT = (index: number) =>
  `A long narration number ${index} about the harbour at dawn, the gulls over the red boat, the tide tables pinned to the wall of the old ferry office, and everything else a long prompt tends to say.`;

/**
 * Twelve files of every kind, as the interface review (decisions 0043-0045) measured the library with (four spoken with long prompts,
 * three photos, two clips, two memos, a voice clip), and a project to attach them to.
 */
async function mixedLibrary(page: Page) {
  for (let index = 0; index < 4; index++) {
    const spoken = await page.request.post("/api/voice/generate", { data: { text: LONG_PROMPT(index), voice_id: "" } });
    expect(spoken.status(), await spoken.text()).toBeLessThan(300);
  }
  for (const name of ["Beach.png", "Dunes.png", "Pier.png"]) await saveFile(page, "photo", name, PNG_BYTES);
  for (const name of ["Skate.webm", "Surf.webm"]) await saveFile(page, "clip", name, webmBytes(30_000));
  for (const name of ["Groceries.m4a", "Idea.m4a"]) await saveFile(page, "memo", name, isoMedia("M4A ", 10));
  const voice = await page.request.post("/api/voice/upload", {
    multipart: { file: { name: "Narration.mp3", mimeType: "audio/mpeg", buffer: mp3Frames(20) } },
  });
  expect(voice.status()).toBe(201);
  const project = await page.request.post("/api/project/create", { data: { title: "Trip film" } });
  expect(project.status()).toBe(201);
  return (await project.json()).id as string;
}

/** A prompt's clipped text: its height in lines of its own line height. */
const promptLines = (item: ReturnType<typeof items>) =>
  item
    .locator(".library-clip-text")
    .evaluate((element) =>
      Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight)),
    );

/**
 * The compact library (decision 0045), with or without a script: a long prompt shows two lines and a
 * "more" that shows it whole ("less" clips it again); each file has one "Attach to project" that
 * opens a chooser (the project select and Attach), and none shows a select before; its actions carry
 * line icons. Returns the attached file's name.
 */
async function checkCompactLibrary(page: Page, projectId: string) {
  await page.goto("/library");
  await expect(items(page)).toHaveCount(12);
  const spoken = items(page).filter({ hasText: "harbour at dawn" }).first();
  expect(await promptLines(spoken)).toBe(2);
  const more = spoken.locator(".library-more > summary");
  // What it shows (innerText: the word for the other state is not displayed).
  await expect.poll(() => more.innerText()).toBe("more");
  await more.click();
  await expect.poll(() => more.innerText()).toBe("less");
  expect(await promptLines(spoken)).toBeGreaterThan(2);
  await expect(spoken.getByText(/everything else a long prompt tends to say\.$/)).toBeVisible();
  await more.click();
  expect(await promptLines(spoken)).toBe(2);

  // One chooser per file, closed: no project select shows until one is opened.
  await expect(page.locator(".library-attach > summary")).toHaveCount(12);
  await expect(page.locator('select[name="project_id"]:visible')).toHaveCount(0);
  for (const item of await items(page).all()) {
    for (const icon of ["download", "pencil", "trash-2", "paperclip"])
      await expect(item.locator(`svg.i use[href$="#${icon}"]`)).toHaveCount(1);
  }
  await expect(items(page).filter({ hasText: "Beach.png" }).locator('svg.i use[href$="#brush"]')).toHaveCount(1);
  await expect(
    page.getByRole("heading", { name: "Library", exact: true }).locator('svg.i use[href$="#library"]'),
  ).toHaveCount(1);

  const pier = items(page).filter({ hasText: "Pier.png" });
  await pier.locator(".library-attach > summary").click();
  const chooser = pier.getByLabel("Project for Pier.png");
  await expect(chooser).toBeVisible();
  // The chooser opens over the page, inside it (nothing scrolls sideways).
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.inner);
  await chooser.selectOption({ label: "Trip film" });
  await pier.getByRole("button", { name: "Attach", exact: true }).click();
  await expect(page.getByText("Attached to Trip film").first()).toBeVisible();
  await expect
    .poll(async () => (await (await page.request.get(`/api/project/${projectId}`)).json()).image_file)
    .toBe("Pier.png");
}
const names = (page: Page) => items(page).locator(".library-name").allTextContents();

test.describe("library without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("lists every kind, filters, searches, sorts and pages with a GET form", async ({ page }) => {
    await signUpAndLogIn(page, "library-nojs");
    // A voice clip through its own screen's API, then saved captures.
    const voice = await page.request.post("/api/voice/upload", {
      multipart: { file: { name: "Narration.mp3", mimeType: "audio/mpeg", buffer: mp3Frames(20) } },
    });
    expect(voice.status()).toBe(201);
    await saveFile(page, "photo", "Beach photo.png", PNG_BYTES);
    await saveFile(page, "clip", "Skate clip.webm", webmBytes(30_000));
    await saveFile(page, "memo", "Groceries.m4a", isoMedia("M4A ", 100));

    await page.goto("/library");
    await expect(page.getByRole("heading", { name: /Library/ })).toBeVisible();
    expect(await names(page)).toEqual(["Groceries.m4a", "Skate clip.webm", "Beach photo.png", "Narration.mp3"]);
    await expect(page.getByRole("status").filter({ hasText: "Files 1–4 of 4" })).toBeVisible();
    // Previews: an audio player, a video, a thumbnail; the usage meter.
    await expect(items(page).filter({ hasText: "Groceries.m4a" }).locator("audio")).toHaveCount(1);
    await expect(items(page).filter({ hasText: "Skate clip.webm" }).locator("video")).toHaveAttribute(
      "preload",
      "metadata",
    );
    await expect(items(page).filter({ hasText: "Beach photo.png" }).locator("img")).toHaveAttribute(
      "src",
      /\/media\/.+\/thumbnail$/,
    );
    await expect(page.locator("meter#storage-meter")).toHaveAttribute("value", /^\d+$/);

    // Filter by kind.
    await page.getByLabel("Kind").selectOption("memo");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/kind=memo/);
    expect(await names(page)).toEqual(["Groceries.m4a"]);

    // Search by name, all kinds.
    await page.getByLabel("Kind").selectOption("");
    await page.getByLabel("Search").fill("beach");
    await page.getByRole("button", { name: "Apply" }).click();
    expect(await names(page)).toEqual(["Beach photo.png"]);

    // Sort by size, largest first.
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Sort").selectOption("-size");
    await page.getByRole("button", { name: "Apply" }).click();
    expect((await names(page))[0]).toBe("Skate clip.webm");

    // The same usage meter on the upload screens.
    const used = String((await (await page.request.get("/api/library/usage")).json()).used_bytes);
    await expect(page.locator("meter#storage-meter")).toHaveAttribute("value", used);
    for (const screen of ["/voices", "/videos"]) {
      await page.goto(screen);
      await expect(page.locator("meter#storage-meter")).toHaveAttribute("value", used);
    }

    // A bad filter in the URL says so and lists everything.
    await page.goto("/library?kind=music");
    await expect(page.getByRole("alert").filter({ hasText: "kind must be one of" })).toBeVisible();
    expect(await names(page)).toHaveLength(4);
  });

  test("pages of 24 with Previous and Next links that keep the filters", async ({ page }) => {
    await signUpAndLogIn(page, "library-pages");
    for (let i = 1; i <= 26; i++) await saveFile(page, "photo", `shot ${String(i).padStart(2, "0")}.png`, PNG_BYTES);
    await page.goto("/library?kind=photo&sort=date");
    await expect(page.getByText("Files 1–24 of 26")).toBeVisible();
    expect(await items(page).count()).toBe(24);
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await page.getByRole("link", { name: "Next →" }).click();
    // Next carries the cursor of the page's last file (decision 0076).
    await expect(page).toHaveURL(/kind=photo&sort=date&page=2&cursor=[\w-]+$/);
    expect(await names(page)).toEqual(["shot 25.png", "shot 26.png"]);
    await page.getByRole("link", { name: "← Previous" }).click();
    expect((await names(page))[0]).toBe("shot 01.png");
  });

  test("rename (blank refused, extension kept) and delete with a confirmation step", async ({ page }) => {
    await signUpAndLogIn(page, "library-nojs-edit");
    const photo = await saveFile(page, "photo", "first.png", PNG_BYTES);
    await saveFile(page, "memo", "keep me.m4a", isoMedia("M4A ", 10));

    await page.goto("/library");
    await page.getByRole("link", { name: "Rename first.png" }).click();
    await expect(page).toHaveURL(new RegExp(`rename=${photo.id}`));
    const nameField = page.getByLabel("New name");
    await nameField.fill("   ");
    // The browser's own check is off without a script: the server answers 400 and says why.
    await nameField.evaluate((input: HTMLInputElement) => input.removeAttribute("required"));
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Name is required" }).first()).toBeVisible();
    await page.getByLabel("New name").fill("Sunset");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page).toHaveURL(/\/library$/);
    await expect(page.getByText("Renamed to Sunset.png").first()).toBeVisible();
    expect(await names(page)).toContain("Sunset.png");

    // Attach to a project: a plain form with a select of the person's projects.
    const project = await page.request.post("/api/project/create", { data: { title: "Trip film" } });
    expect(project.status()).toBe(201);
    const projectId = (await project.json()).id as string;
    await page.goto("/library");
    const sunset = items(page).filter({ hasText: "Sunset.png" });
    // One "Attach to project" per file opens the chooser (a <details>: no script needed).
    await expect(sunset.getByLabel("Project for Sunset.png")).toBeHidden();
    await sunset.locator(".library-attach > summary").click();
    await sunset.getByLabel("Project for Sunset.png").selectOption({ label: "Trip film" });
    await sunset.getByRole("button", { name: "Attach", exact: true }).click();
    await expect(page.getByText("Attached to Trip film").first()).toBeVisible();
    expect((await (await page.request.get(`/api/project/${projectId}`)).json()).image_file).toBe("Sunset.png");

    // Delete asks first on the page; Cancel keeps the file, Delete removes it.
    await page.getByRole("button", { name: "Delete Sunset.png" }).click();
    await expect(page).toHaveURL(new RegExp(`delete=${photo.id}`));
    await expect(page.getByRole("alertdialog")).toContainText("Delete this file?");
    await page.getByRole("link", { name: "Cancel", exact: true }).click();
    expect(await names(page)).toContain("Sunset.png");
    await page.getByRole("button", { name: "Delete Sunset.png" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/library$/);
    await expect(page.getByText("File deleted").first()).toBeVisible();
    expect(await names(page)).toEqual(["keep me.m4a"]);
    expect((await page.request.get(`/media/${photo.id}`)).status()).toBe(404);
    // Deleting detached it from the project.
    expect((await (await page.request.get(`/api/project/${projectId}`)).json()).image_file).toBeNull();
  });
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`the compact library at ${viewport.width}x${viewport.height}, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled, viewport });
      test("long prompts clipped with more, one Attach to project per file that opens a chooser and attaches, line icons", async ({
        page,
      }) => {
        await signUpAndLogIn(page, "library-compact");
        const projectId = await mixedLibrary(page);
        await checkCompactLibrary(page, projectId);
        if (viewport.width < 600) {
          // The interface review (decisions 0043-0045) measured these twelve files at 6,309 px on a phone (a project select on each card,
          // prompts in full): under half of that now, not counting the upload card the page has since gained.
          await page.goto("/library");
          const uploadCard = page.getByRole("region", { name: "Upload a file" });
          await expect(uploadCard).toBeVisible();
          const uploadCardHeight = (await uploadCard.boundingBox())!.height;
          expect((await page.evaluate(() => document.documentElement.scrollHeight)) - uploadCardHeight).toBeLessThan(
            3150,
          );
        }
      });
    });
  }
}

test.describe("library with JavaScript", () => {
  test("a recorded voice memo (Chromium's real M4A) and a camera clip (WebM) save to the library; a Camera V2 photo from its gallery", async ({
    page,
  }) => {
    await signUpAndLogIn(page, "library-memo");
    await watchRecorders(page);
    await page.goto("/voicememo");
    await page.getByRole("button", { name: "Start Recording" }).click();
    await expect(page.getByRole("timer")).toHaveText("0:01", { timeout: 3000 });
    await page.getByRole("button", { name: "Stop Recording" }).click();
    await expect(page.getByRole("link", { name: "Download Memo" })).toBeVisible();
    // A line icon beside the words, no emoji (decision 0045): a disk to save, a tick once saved.
    await expect(page.getByRole("button", { name: "Save to library" })).toHaveText("Save to library");
    await expect(page.getByRole("button", { name: "Save to library" }).locator('svg.i use[href$="#save"]')).toHaveCount(
      1,
    );
    await page.getByRole("button", { name: "Save to library" }).click();
    await expect(page.getByRole("button", { name: "In your library" })).toBeVisible();
    await expect(
      page.getByRole("button", { name: "In your library" }).locator('svg.i use[href$="#check"]'),
    ).toHaveCount(1);
    const memos = await (await page.request.get("/api/library?kind=memo")).json();
    expect(memos.files).toHaveLength(1);
    expect(memos.files[0]).toMatchObject({
      kind: "memo",
      content_type: "audio/mp4",
      name: expect.stringMatching(/^voice-memo-.+\.m4a$/),
    });

    // Camera: hold the capture button for a clip (640x480: light enough for a busy machine); it downloads, then saves.
    await page.goto("/camera");
    const source = page.locator("video.camera-source");
    await expect.poll(() => source.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
    const capture = page.getByRole("button", { name: "Capture" });
    await expect(capture).toBeEnabled();
    await capture.scrollIntoViewIfNeeded();
    const box = (await capture.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect(page.getByRole("status").filter({ hasText: "REC" })).toBeVisible();
    // As camera.spec: release once the encoder has its first second out.
    await recordedMoreThan(page);
    const download = page.waitForEvent("download");
    await page.mouse.up();
    expect((await download).suggestedFilename()).toMatch(/\.webm$/);
    await page.getByRole("button", { name: "Save to library" }).click();
    await expect(page.getByRole("button", { name: "In your library" })).toBeVisible();
    const clips = await (await page.request.get("/api/library?kind=clip")).json();
    expect(clips.files).toMatchObject([{ kind: "clip", content_type: "video/webm" }]);

    // Camera V2: a tap takes a photo into the gallery; its card saves it.
    await page.goto("/camera-v2");
    await expect.poll(() => source.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
    await expect(capture).toBeEnabled();
    await tapCapture(page, () => capture.click());
    const card = page.getByTestId("gallery-item").filter({ has: page.locator("img") });
    await expect(card).toHaveCount(1);
    await expect(card.getByRole("button", { name: "Save to library" }).locator('svg.i use[href$="#save"]')).toHaveCount(
      1,
    );
    await card.getByRole("button", { name: "Save to library" }).click();
    await expect(card.getByRole("button", { name: "In your library" })).toBeVisible();
    const photos = await (await page.request.get("/api/library?kind=photo")).json();
    expect(photos.files).toMatchObject([{ kind: "photo", content_type: "image/png", width: 1280, height: 720 }]);
  });

  test("a camera photo saved to the library shows there; delete asks with a dialog", async ({ page }) => {
    await signUpAndLogIn(page, "library-js");
    await page.goto("/camera");
    const video = page.locator("video.camera-source");
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
    const download = page.waitForEvent("download");
    await tapCapture(page, () => page.getByRole("button", { name: "Capture" }).click());
    const photo = await download;
    // the download in docs/screens.md is unchanged; "Save to library" comes beside it.
    expect(photo.suggestedFilename()).toMatch(/^camera-.+\.png$/);
    await page.getByRole("button", { name: "Save to library" }).click();
    await expect(page.getByText(`Saved to your library: ${photo.suggestedFilename()}`)).toBeVisible();
    await expect(page.getByRole("button", { name: "In your library" })).toBeDisabled();

    await page.getByRole("link", { name: "Open library" }).click();
    await expect(page).toHaveURL(/\/library$/);
    const item = items(page).filter({ hasText: photo.suggestedFilename() });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Photo");
    await expect(item).toContainText("640×480");
    // The thumbnail loads (sharp made it).
    await expect.poll(() => item.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);

    // Use as a sketch: the drawing pad opens with the picture on the canvas.
    await item.getByRole("link", { name: /Use .* as a sketch/ }).click();
    await expect(page).toHaveURL(/\/drawing\?from=/);
    await expect(page.locator("canvas[data-start-image='loaded']")).toHaveCount(1);
    await page.goBack();

    // Delete: a dialog asks; dismissing keeps the file, accepting removes it without a page load.
    await items(page)
      .first()
      .getByRole("button", { name: /^Delete / })
      .click();
    await answerAppDialog(page, /^Delete “.+”\?$/, "Cancel");
    await expect(items(page)).toHaveCount(1);
    await items(page)
      .first()
      .getByRole("button", { name: /^Delete / })
      .click();
    await expect(appDialog(page, /^Delete “.+”\?$/)).toHaveAccessibleDescription(
      "Delete this file? It is removed from every project that uses it.",
    );
    await answerAppDialog(page, /^Delete “.+”\?$/, "Delete");
    await expect(items(page)).toHaveCount(0);
    await expect(page.getByText("File deleted").first()).toBeVisible();
    expect((await (await page.request.get("/api/library")).json()).total).toBe(0);
  });
});

/** The three upload screens (decision 0044): each picker, a file it takes and where the file then shows. */
const UPLOAD_SCREENS = [
  {
    path: "/voices",
    picker: "Upload MP3",
    file: { name: "Alike.mp3", mimeType: "audio/mpeg", buffer: mp3Frames(20) },
    listed: (page: Page) => page.getByTestId("voice-item").filter({ hasText: "Alike.mp3" }),
  },
  {
    path: "/videos",
    picker: "Choose a video",
    file: { name: "Alike.webm", mimeType: "video/webm", buffer: webmBytes(2048) },
    listed: (page: Page) => page.getByTestId("video-item").filter({ hasText: "Alike.mov" }),
  },
  {
    path: "/library",
    picker: "Choose a file",
    file: { name: "Alike.png", mimeType: "image/png", buffer: PNG_BYTES },
    listed: (page: Page) => items(page).filter({ hasText: "Alike.png" }),
  },
];

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`at ${viewport.width}x${viewport.height} every upload (Voices, Video Hub, Library) confirms alike and clears its picker`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "uploads-alike");
    const confirmations: { text: string; kind: string }[] = [];
    for (const screen of UPLOAD_SCREENS) {
      await page.goto(screen.path);
      const picker = page.getByLabel(screen.picker);
      await picker.setInputFiles(screen.file);
      await expect(page.getByTestId("drop-zone")).toContainText(`Chosen: ${screen.file.name}`);
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      const toast = page.locator(".Toastify__toast").filter({ hasText: "Upload successful" });
      await expect(toast, screen.path).toBeVisible();
      confirmations.push({
        text: (await toast.innerText()).trim(),
        kind: (await toast.getAttribute("class"))!.match(/Toastify__toast--(\w+)/)![1],
      });
      await expect(screen.listed(page), screen.path).toBeVisible();
      // The picker is empty again: no file and no "Chosen: …" beside "No file chosen".
      await expect(page.getByTestId("drop-zone"), screen.path).not.toContainText("Chosen:");
      expect(await picker.evaluate((input: HTMLInputElement) => input.files?.length ?? 0), screen.path).toBe(0);
      await expect(page.getByTestId("upload-error")).toHaveCount(0);
    }
    // the voice text in docs/screens.md#error-messages, said the same way by all three.
    expect(confirmations).toEqual(UPLOAD_SCREENS.map(() => ({ text: "✅ Upload successful!", kind: "success" })));
  });

  test(`library at ${viewport.width}x${viewport.height}: an upload the server refuses says why under the picker, once`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "library-upload-refused");
    await page.goto("/library");
    await page.getByLabel("File type").selectOption("memo");
    await page
      .getByLabel("Choose a file")
      .setInputFiles({ name: "not a memo.m4a", mimeType: "audio/mp4", buffer: PNG_BYTES });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    const error = page.getByRole("region", { name: "Upload a file" }).getByTestId("upload-error");
    await expect(error).toContainText("❌ Upload failed");
    await expect(error).toContainText("A voice memo must be M4A (MP4 audio)");
    await expect(page.getByLabel("Choose a file")).toHaveAttribute(
      "aria-describedby",
      (await error.getAttribute("id"))!,
    );
    await expect(page.getByText("A voice memo must be M4A (MP4 audio)")).toHaveCount(1);
    await expect(page.locator(".Toastify").getByText("❌ Upload failed")).toHaveCount(0);
    await expect(items(page)).toHaveCount(0);
  });
}
