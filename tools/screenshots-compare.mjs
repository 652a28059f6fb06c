// The compare set of `npm run screenshots` (SCREENSHOTS_SET=compare): the same screens and moments,
// taken on two builds of the app, so a change to what people touch every minute can be shown as
// before and after (the assistant after a question, a delete, a toast, the project editor, the
// library) at 1280×800 (dark) and 375×667 (light). The person and their items are the same on both
// builds (seedCompare adds to the docs set's seed). The locators are roles and texts that old and new
// screens share, with fallbacks; a step that does not work is logged as a warning in the manifest and
// the page is photographed as it is, so the set never hangs on a screen that changed.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 667 };
const QUESTION = "Which tool turns my sketch into an image?";
/** The voice clip the voices delete removes (uploaded again by the toast shot just before it). */
const THROWAWAY = "Old take.mp3";
const STEP_MS = 8_000;

/** Files the compare set adds to the seed: voice clips and pictures, as a person would have. */
const VOICE_CLIPS = ["Intro take 2.mp3"];
const PICTURES = [
  { name: "Harbour at dusk.png", from: "#1d3557", to: "#e76f51" },
  { name: "Lighthouse sketch.png", from: "#f1faee", to: "#457b9d" },
  { name: "Title card.png", from: "#2a9d8f", to: "#264653" },
];

/** A 640×400 picture: a gradient with a sun and a horizon (something to see on a card). */
const picture = ({ from, to }) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">` +
        `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
        `<rect width="640" height="400" fill="url(#g)"/><circle cx="460" cy="170" r="56" fill="#ffd166"/>` +
        `<rect y="260" width="640" height="140" fill="#0b2545" opacity="0.7"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

/** What the docs set's seed made, plus voice clips, pictures, and the project's media attached. */
export async function seedCompare(url, { cookie, projectId }, root) {
  const headers = { Cookie: cookie };
  const mp3 = fs.readFileSync(path.join(root, "public/static/music-demos/demo2.mp3"));
  const upload = async (pathname, name, bytes, type, fields = {}) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("file", new Blob([bytes], { type }), name);
    const answer = await fetch(`${url}${pathname}`, { method: "POST", headers, body: form });
    if (!answer.ok) throw new Error(`${pathname} ${name}: ${answer.status} ${await answer.text()}`);
  };
  for (const name of VOICE_CLIPS) await upload("/api/voice/upload", name, mp3, "audio/mpeg");
  for (const one of PICTURES)
    await upload("/api/library/upload", one.name, await picture(one), "image/png", { kind: "photo" });
  const library = await (await fetch(`${url}/api/library?kind=aivideo`, { headers })).json();
  const clip = library.files?.[0];
  if (!clip) throw new Error("seed: no generated clip in the library");
  const put = await fetch(`${url}/api/project/${encodeURIComponent(projectId)}`, {
    method: "PUT",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({
      title: "Short film",
      description: "A one-minute film about the sea, with narration and music.",
      voice_file: VOICE_CLIPS[0],
      music_file: "demo2",
      video_file: clip.id,
      image_file: PICTURES[0].name,
    }),
  });
  if (!put.ok) throw new Error(`project media: ${put.status} ${await put.text()}`);
}

/** A step that may not exist on this build: its failure is a warning in the manifest, not a stop. */
async function attempt(note, what, step) {
  try {
    return await step();
  } catch (error) {
    note.warnings.push(`${what}: ${String(error?.message ?? error).split("\n")[0]}`);
    return undefined;
  }
}

/** The first of the locators that is visible within the step's time, in order. */
async function firstVisible(locators, timeout = STEP_MS) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const locator of locators) if (await locator.isVisible().catch(() => false)) return locator;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("none of the expected controls is visible");
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Asks the assistant a question: Ctrl+Enter sends on the form and on the chat alike, else Ask/Send. */
async function askAssistant(page, note) {
  const box = await firstVisible([
    page.getByRole("textbox", { name: /question|message|ask/i }).first(),
    page.locator("textarea").first(),
  ]);
  await box.fill(QUESTION);
  await box.press("Control+Enter");
  await page.waitForTimeout(600);
  const sent = await page
    .getByText(/Answered by|Asking|Thinking/i)
    .first()
    .isVisible()
    .catch(() => false);
  if (!sent && (await box.inputValue().catch(() => "")) === QUESTION) {
    note.warnings.push("Ctrl+Enter did not send: clicked Ask/Send");
    await attempt(note, "click Ask/Send", () =>
      page
        .getByRole("button", { name: /^(Ask|Send)\b/ })
        .first()
        .click({ timeout: STEP_MS }),
    );
  }
  await attempt(note, "wait for the reply", () => page.getByText("Answered by").first().waitFor({ timeout: 20_000 }));
  // Asked and spoken in full: the button reads Ask (or Send) again, enabled.
  const again = page.getByRole("button", { name: /^(Ask|Send)$/ }).first();
  for (let tries = 0; tries < 75 && !(await again.isEnabled().catch(() => false)); tries++)
    await page.waitForTimeout(200);
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
  await page.waitForTimeout(800);
}

/**
 * Clicks the Delete of the item named `name` and says what followed: the app's dialog (left open for
 * the photograph), a native dialog (its text; dismissed, which a screenshot cannot show), or nothing.
 */
const clickDelete = (name) => async (page, note) => {
  const button = await firstVisible(
    [
      page.getByRole("button", { name: new RegExp(`^Delete\\b.*${escapeRegExp(name)}`, "i") }).first(),
      page
        .locator("li, article, .card")
        .filter({ hasText: name })
        .getByRole("button", { name: /^Delete\b/ })
        .first(),
    ],
    15_000,
  );
  await button.scrollIntoViewIfNeeded();
  const nativeBefore = note.nativeDialogs.length;
  await button.click({ timeout: STEP_MS });
  const dialog = page.getByRole("alertdialog").first();
  if (
    await dialog.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    )
  ) {
    note.appDialog = (await dialog.innerText()).replace(/\s+/g, " ").trim();
    await page.waitForTimeout(400);
  } else if (note.nativeDialogs.length > nativeBefore) {
    note.warnings.push("the PNG shows the page just after the click, the native dialog dismissed");
  } else {
    note.warnings.push("no question was asked: the click deleted at once");
    // The row goes and the toast that says so comes in.
    await button.waitFor({ state: "detached", timeout: 5_000 }).catch(() => {});
    await page
      .locator(".Toastify__toast, [role=status]:not(:empty)")
      .first()
      .waitFor({ timeout: 3_000 })
      .catch(() => {});
    await page.waitForTimeout(500);
  }
};

/** After the photograph: the app's dialog answered (Delete for the throwaway, Cancel otherwise). */
const answerDialog = (confirm) => async (page, note) => {
  const dialog = page.getByRole("alertdialog").first();
  if (!(await dialog.isVisible().catch(() => false))) return;
  if (confirm)
    await attempt(note, "confirm the dialog", () =>
      dialog
        .getByRole("button", { name: /^Delete\b/ })
        .first()
        .click({ timeout: STEP_MS }),
    );
  else {
    await page.keyboard.press("Escape");
    if (await dialog.isVisible().catch(() => false))
      await attempt(note, "cancel the dialog", () =>
        dialog
          .getByRole("button", { name: /^Cancel\b/ })
          .first()
          .click({ timeout: STEP_MS }),
      );
  }
  await page.waitForTimeout(500);
};

/** Waits for a toast with the text, wherever this build shows toasts. */
const toastWith = (text) => (page, note) =>
  attempt(note, `toast "${text}"`, () => page.getByText(text).first().waitFor({ timeout: 10_000 }));

/** On a phone: the welcome toast with the navigation drawer (and its account corner) open. */
async function toastOverMenu(page, note) {
  await attempt(note, "open the Menu", async () => {
    await page.getByText("Menu", { exact: true }).first().click({ timeout: STEP_MS });
    await page
      .getByText(/^(Logout|Log out)$/)
      .first()
      .scrollIntoViewIfNeeded({ timeout: STEP_MS });
  });
  await toastWith("Welcome back")(page, note);
}

/** Uploads the throwaway clip on /voices: its "Upload successful!" toast is the photograph. */
async function uploadToast(page, note, root) {
  const input = page.locator('input[type="file"]').first();
  await input.setInputFiles({
    name: THROWAWAY,
    mimeType: "audio/mpeg",
    buffer: fs.readFileSync(path.join(root, "public/static/music-demos/demo2.mp3")),
  });
  await page.getByRole("button", { name: "Upload", exact: true }).first().click({ timeout: STEP_MS });
  await toastWith("Upload successful")(page, note);
  await page.waitForTimeout(300);
}

/** The compare set: per viewport, in an order that keeps the data alike on both builds. */
export function compareShots(root) {
  const looks = [
    { tag: "wide", viewport: WIDE, theme: "dark" },
    { tag: "phone", viewport: PHONE, theme: "light" },
  ];
  const shots = [];
  for (const { tag, viewport, theme } of looks) {
    const at = { viewport, theme };
    shots.push(
      { name: `assistant-${tag}`, path: "/assistant", ...at, act: askAssistant, full: true },
      {
        name: `delete-content-${tag}`,
        path: "/dashboard",
        ...at,
        wait: "Your content",
        act: clickDelete("Ideas for the next video"),
        after: answerDialog(false),
      },
      {
        name: `delete-library-${tag}`,
        path: "/library",
        ...at,
        wait: "Title card",
        act: clickDelete("Title card"),
        after: answerDialog(false),
      },
      // The welcome toast of the first dashboard of a sign-in, over the sidebar's account corner.
      {
        name: `toast-welcome-${tag}`,
        path: "/dashboard",
        ...at,
        keepToasts: true,
        act: toastWith("Welcome back"),
      },
      ...(tag === "phone"
        ? [{ name: "toast-menu-phone", path: "/dashboard", ...at, keepToasts: true, act: toastOverMenu }]
        : []),
      { name: `project-editor-${tag}`, path: "/project/{project}", ...at, wait: "Save Project", full: true },
      { name: `library-${tag}`, path: "/library", ...at, wait: "Harbour at dusk", full: true },
    );
  }
  // Last: these change the data (a clip uploaded, then deleted), on both builds alike.
  for (const { tag, viewport, theme } of looks)
    shots.push(
      {
        name: `toast-upload-${tag}`,
        path: "/voices",
        viewport,
        theme,
        wait: "Narration.mp3",
        act: (page, note) => uploadToast(page, note, root),
      },
      {
        name: `delete-voice-${tag}`,
        path: "/voices",
        viewport,
        theme,
        wait: THROWAWAY.replace(".mp3", ""),
        act: clickDelete(THROWAWAY.replace(".mp3", "")),
        after: answerDialog(true),
      },
    );
  return shots;
}

/** manifest.json and manifest.md beside the PNGs: what each shows, and what a PNG cannot (native dialogs). */
export function writeManifest(out, notes) {
  fs.writeFileSync(path.join(out, "manifest.json"), `${JSON.stringify(notes, null, 2)}\n`);
  const lines = ["| shot | files | screen | viewport | theme | notes |", "| --- | --- | --- | --- | --- | --- |"];
  for (const note of notes) {
    const said = [
      ...note.nativeDialogs.map((dialog) => `native ${dialog.type}() opened: "${dialog.message}" (not in the PNG)`),
      ...(note.appDialog ? [`app dialog: "${note.appDialog}"`] : []),
      ...note.warnings,
    ];
    lines.push(
      `| ${note.shot} | ${note.files.join(", ")} | ${note.path} | ${note.viewport} | ${note.theme} | ${said.join("; ").replace(/\|/g, "\\|")} |`,
    );
  }
  fs.writeFileSync(path.join(out, "manifest.md"), `${lines.join("\n")}\n`);
}
