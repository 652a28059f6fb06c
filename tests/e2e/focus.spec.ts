import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page, hydrated } from "../support/e2e-test";
import { webmBytes } from "../support/media";
import { appDialog } from "../support/app-dialog";
import { signUpAndLogIn } from "../support/e2e-session";

// Keyboard only, JavaScript on (enhanced fetchers): after a delete, a move or a rename the focus lands
// on the next item, the moved button or the renamed row, never on <body>.

const REAL_MP3 = fs.readFileSync(path.resolve("public/static/music-demos/demo2.mp3"));

/** Presses Enter on `control` with the keyboard (focus first: no mouse). */
async function pressEnter(control: Locator) {
  await control.focus();
  await control.page().keyboard.press("Enter");
}

/** The app's dialog asks with the focus on Cancel: Tab to Delete, Enter. */
async function confirmWithKeyboard(page: Page) {
  const dialog = page.locator("dialog.app-dialog[open]");
  await expectFocused(dialog.getByRole("button", { name: "Cancel" }));
  await page.keyboard.press("Tab");
  await expectFocused(dialog.getByRole("button", { name: "Delete" }));
  await page.keyboard.press("Enter");
}

async function expectFocused(target: Locator) {
  await expect(target).toBeFocused();
  expect(await target.page().evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
}

test("dashboard: after a delete the next item's Delete has the focus; a pin keeps it on the star", async ({ page }) => {
  await signUpAndLogIn(page, "focus-content");
  for (const title of ["Alpha", "Bravo", "Charlie"]) {
    expect((await page.request.post("/api/content", { data: { title, body: "" } })).status()).toBe(201);
  }
  await page.goto("/dashboard");
  await hydrated(page);
  const del = (title: string) => page.getByRole("button", { name: `Delete ${title}`, exact: true });

  // Newest first: Charlie, Bravo, Alpha. A pin moves Alpha to the top; its star keeps the focus.
  await pressEnter(page.getByRole("button", { name: "Pin Alpha", exact: true }));
  await expectFocused(page.getByRole("button", { name: "Unpin Alpha", exact: true }));
  await expect(page.getByRole("list", { name: "Content items" }).getByRole("link")).toHaveText([
    "Alpha",
    "Charlie",
    "Bravo",
  ]);

  // The app's dialog asks; Escape and Cancel give the focus back to the Delete pressed.
  await pressEnter(del("Charlie"));
  await expectFocused(appDialog(page, "Delete this content?").getByRole("button", { name: "Cancel" }));
  await page.keyboard.press("Escape");
  await expectFocused(del("Charlie"));
  await pressEnter(del("Charlie"));
  await page.keyboard.press("Enter");
  await expectFocused(del("Charlie"));
  // The middle one: the next row's Delete.
  await pressEnter(del("Charlie"));
  await confirmWithKeyboard(page);
  await expectFocused(del("Bravo"));
  // The last one: the previous row's Delete.
  await pressEnter(del("Bravo"));
  await confirmWithKeyboard(page);
  await expect(del("Bravo")).toHaveCount(0);
  await expectFocused(del("Alpha"));
  // The only one: the list's heading.
  await pressEnter(del("Alpha"));
  await confirmWithKeyboard(page);
  await expectFocused(page.getByRole("heading", { name: "Your content" }));
  await expect(page.getByText("No content yet. Click Create to get started!")).toBeVisible();
});

test("dashboard: Move down and Move up keep the focus on the moved tool's arrow", async ({ page }) => {
  await signUpAndLogIn(page, "focus-move");
  await page.goto("/dashboard?edit=1");
  await hydrated(page);
  const labels = () =>
    page.locator("[data-tool-id]").evaluateAll((tools) => tools.map((tool) => tool.getAttribute("data-tool-id")));

  await pressEnter(page.getByRole("button", { name: "Move Create down" }));
  await expect.poll(async () => (await labels()).slice(0, 2)).toEqual(["assistant", "create"]);
  await expectFocused(page.getByRole("button", { name: "Move Create down" }));

  // Back to the top: "up" is disabled there, so the focus takes the tool's other arrow.
  await pressEnter(page.getByRole("button", { name: "Move Create up" }));
  await expect.poll(async () => (await labels())[0]).toBe("create");
  await expectFocused(page.getByRole("button", { name: "Move Create down" }));
});

test("voices: rename keeps the focus on the renamed row; delete moves it to the next row", async ({ page }) => {
  await signUpAndLogIn(page, "focus-voices");
  for (const name of ["one.mp3", "two.mp3", "three.mp3"]) {
    const upload = await page.request.post("/api/voice/upload", {
      multipart: { file: { name, mimeType: "audio/mpeg", buffer: REAL_MP3 } },
    });
    expect(upload.ok()).toBe(true);
  }
  await page.goto("/voices");
  await hydrated(page);
  const names = () => page.getByTestId("voice-item").locator(".media-name").allTextContents();
  const order = await names();
  expect(order).toHaveLength(3);

  // Rename: the form's field takes the focus, Enter saves, the renamed row's Rename link has it after.
  await pressEnter(page.getByRole("link", { name: `Rename ${order[1]}` }));
  const field = page.getByLabel(`New name for ${order[1]}`);
  await expectFocused(field);
  await field.fill("renamed take");
  await page.keyboard.press("Enter");
  await expectFocused(page.getByRole("link", { name: "Rename renamed take.mp3" }));

  // Escape leaves the form: focus back on the row's Rename link.
  await pressEnter(page.getByRole("link", { name: `Rename ${order[0]}` }));
  await page.keyboard.press("Escape");
  await expectFocused(page.getByRole("link", { name: `Rename ${order[0]}` }));

  // Delete the first: the next row's Delete.
  const rows = await names();
  await pressEnter(page.getByRole("button", { name: `Delete ${rows[0]}` }));
  await confirmWithKeyboard(page);
  await expect(page.getByTestId("voice-item")).toHaveCount(2);
  await expectFocused(page.getByRole("button", { name: `Delete ${rows[1]}` }));
});

test("video hub: rename and delete keep the focus in the list", async ({ page }) => {
  await signUpAndLogIn(page, "focus-videos");
  for (const name of ["a.webm", "b.webm"]) {
    const upload = await page.request.post("/api/videos/upload", {
      multipart: { file: { name, mimeType: "video/webm", buffer: webmBytes() } },
    });
    expect(upload.ok()).toBe(true);
  }
  await page.goto("/videos");
  await hydrated(page);
  const items = page.getByTestId("video-item");
  await expect(items).toHaveCount(2);
  const second = (await items.nth(1).locator(".media-name").textContent())!;

  await pressEnter(page.getByRole("link", { name: `Rename ${second}` }));
  await page.getByLabel(`New name for ${second}`).fill("holiday");
  await page.keyboard.press("Enter");
  await expectFocused(page.getByRole("link", { name: "Rename holiday.mov" }));

  // The last row goes: the previous row's Delete; then the only one: the page heading.
  const rows = await items.locator(".media-name").allTextContents();
  await pressEnter(page.getByRole("button", { name: `Delete ${rows[1]}` }));
  await confirmWithKeyboard(page);
  await expect(items).toHaveCount(1);
  await expectFocused(page.getByRole("button", { name: `Delete ${rows[0]}` }));
  await pressEnter(page.getByRole("button", { name: `Delete ${rows[0]}` }));
  await confirmWithKeyboard(page);
  await expect(page.getByText("No videos uploaded yet.")).toBeVisible();
  await expectFocused(page.getByRole("heading", { level: 1 }));
});

test("projects: after a delete the next card's Delete has the focus", async ({ page }) => {
  await signUpAndLogIn(page, "focus-projects");
  for (const title of ["First", "Second"]) {
    expect((await page.request.post("/api/project/create", { data: { title } })).ok()).toBe(true);
  }
  await page.goto("/projects");
  await hydrated(page);
  const titles = await page.getByTestId("project-card").locator("h2").allTextContents();
  await pressEnter(page.getByRole("button", { name: `Delete ${titles[0]}` }));
  await confirmWithKeyboard(page);
  await expectFocused(page.getByRole("button", { name: `Delete ${titles[1]}` }));
});

test("content: Edit focuses the title field; Save focuses the renamed title", async ({ page }) => {
  await signUpAndLogIn(page, "focus-edit");
  const created = await page.request.post("/api/content", { data: { title: "Draft", body: "words" } });
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/content/${id}`);
  await hydrated(page);
  await pressEnter(page.getByRole("link", { name: "Edit", exact: true }));
  const title = page.getByLabel("Title");
  await expectFocused(title);
  await title.fill("Final title");
  await page.keyboard.press("Enter");
  await expectFocused(page.getByRole("heading", { name: "Final title" }));
});

test("voice memo: after Delete Memo the focus is back on Start Recording", async ({ page }) => {
  await signUpAndLogIn(page, "focus-memo");
  await page.goto("/voicememo");
  await hydrated(page);
  await pressEnter(page.getByRole("button", { name: "Start Recording" }));
  // The button was disabled while the microphone started: the focus came back to it (now Stop).
  await expectFocused(page.getByRole("button", { name: "Stop Recording" }));
  await expect(page.getByRole("timer")).toContainText("0:01");
  await page.keyboard.press("Enter");
  await pressEnter(page.getByRole("button", { name: "Delete Memo" }));
  await expect(page.getByRole("button", { name: "Delete Memo" })).toHaveCount(0);
  await expectFocused(page.getByRole("button", { name: "Start Recording" }));
});
