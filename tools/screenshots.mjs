// `npm run screenshots`: PNGs of the main screens in both themes and on a phone, into docs/screenshots/
// (the README shows a few), so a newcomer sees the product before installing it.
//
// Builds the app if there is no build under BUILD_DIR (default `build`), starts it with
// tests/harness/launch.mjs (a temporary DATA_DIR), registers a demo person and gives them a little demo
// content (three writings, a project, a voice clip), then drives Debian's Chromium (through
// Playwright's library; nothing downloads a browser) with reduced motion, so canvases and toasts are
// still and runs draw the same picture (the landing is taken with its moving background, which is
// what it is about). Debian's emoji font is installed where it can be
// (tests/harness/ensure-chromium.mjs), so emoji show as people see them. PNGs are palette-quantised with
// sharp to stay small. Options (environment): SCREENSHOTS_OUT (default docs/screenshots), BUILD_DIR, and
// SCREENSHOTS_ONLY=<pattern of shot names>, SCREENSHOTS_SET=compare for the before/after set of tools/screenshots-compare.mjs (default output
// build/screenshots-compare, with a manifest.md of what each PNG shows and what it cannot).
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { ensureChromium } from "../tests/harness/ensure-chromium.mjs";
import { CHROMIUM_FLAGS, ensureBuild, launchServer, root } from "../tests/harness/launch.mjs";
import { formLogin, register } from "../tests/support/client.mjs";
import { compareShots, seedCompare, writeManifest } from "./screenshots-compare.mjs";

const COMPARE = process.env.SCREENSHOTS_SET === "compare";
if (process.env.SCREENSHOTS_SET && !COMPARE) throw new Error(`SCREENSHOTS_SET: "compare" or unset`);
const OUT = path.resolve(
  root,
  process.env.SCREENSHOTS_OUT || (COMPARE ? "build/screenshots-compare" : "docs/screenshots"),
);
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 667 };
const EMAIL = "demo@example.com";
const PASSWORD = "demo password 1234";

/** What is photographed: file name, path, theme, size, and what to wait for or do first. */
const SHOTS = [
  // The landing's background moves: photographed with motion, once it has filled the screen.
  { name: "landing-dark", path: "/", theme: "dark", viewport: WIDE, motion: true },
  { name: "landing-light", path: "/", theme: "light", viewport: WIDE, motion: true },
  { name: "dashboard-dark", path: "/dashboard", theme: "dark", viewport: WIDE, wait: "Your content" },
  { name: "dashboard-light", path: "/dashboard", theme: "light", viewport: WIDE, wait: "Your content" },
  { name: "assistant-dark", path: "/assistant", theme: "dark", viewport: WIDE, act: askAssistant },
  { name: "drawing-light", path: "/drawing", theme: "light", viewport: WIDE },
  { name: "projects-dark", path: "/projects", theme: "dark", viewport: WIDE, wait: "Short film" },
  { name: "project-editor-light", path: "/project/{project}", theme: "light", viewport: WIDE },
  { name: "voices-dark", path: "/voices", theme: "dark", viewport: WIDE, wait: "Narration.mp3" },
  { name: "videos-light", path: "/videos", theme: "light", viewport: WIDE, wait: "Generated" },
  { name: "library-dark", path: "/library", theme: "dark", viewport: WIDE, wait: "Narration.mp3" },
  { name: "account-light", path: "/account", theme: "light", viewport: WIDE, wait: "Personal API tokens" },
  // A finished clip: its player, Download and Open in Video Hub (decision 0043).
  { name: "aivideo-dark", path: "/aivideo?job={job}", theme: "dark", viewport: WIDE, wait: "Open in Video Hub" },
  { name: "image-light", path: "/image", theme: "light", viewport: WIDE },
  { name: "dashboard-phone-dark", path: "/dashboard", theme: "dark", viewport: PHONE, wait: "Your content" },
  { name: "assistant-phone-light", path: "/assistant", theme: "light", viewport: PHONE },
  { name: "menu-phone-dark", path: "/voices", theme: "dark", viewport: PHONE, act: openMenu },
  { name: "library-phone-light", path: "/library", theme: "light", viewport: PHONE, wait: "Narration.mp3" },
];

// The languages (docs/translating.md): five screens in Arabic (right to left) and German (longer
// words), at both sizes. Each shot chooses its language as a person does (the language menu's form).
for (const language of ["ar", "de"])
  for (const [screen, where, theme] of [
    ["landing", "/", "dark"],
    ["dashboard", "/dashboard", "light"],
    ["assistant", "/assistant", "dark"],
    ["library", "/library", "light"],
    ["account", "/account", "dark"],
  ])
    for (const [size, viewport] of [
      ["", WIDE],
      ["-phone", PHONE],
    ])
      SHOTS.push({ name: `${screen}-${language}${size}`, path: where, theme, viewport, language });

/** SCREENSHOTS_ONLY: a pattern of the shots' names to take (all when unset). */
const ONLY = process.env.SCREENSHOTS_ONLY ? new RegExp(process.env.SCREENSHOTS_ONLY) : null;

const log = (message) => process.stdout.write(`[screenshots] ${message}\n`);

/** The demo person and their content; resolves the session cookie and the project's id. */
async function seed(url) {
  const json = (pathname, body, cookie) =>
    fetch(`${url}${pathname}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    });
  const registered = await register(url, EMAIL, { password: PASSWORD });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
  const login = await formLogin(url, EMAIL, { password: PASSWORD });
  const cookie = login.cookie;
  if (!cookie) throw new Error(`login: ${login.status}, no cookie`);
  const writings = [
    ["Storyboard: the lighthouse", "Six shots, dawn to dusk. Open on the beam sweeping the fog."],
    ["Podcast intro", "Welcome back to Studio Notes, where we make things with machines."],
    ["Ideas for the next video", "Time-lapse of the harbour; a matrix-style title; the song from demo 2."],
  ];
  for (const [title, body] of writings) {
    const answer = await json("/api/content", { title, body }, cookie);
    if (answer.status !== 201) throw new Error(`content: ${answer.status}`);
  }
  const project = await json(
    "/api/project/create",
    { title: "Short film", description: "A one-minute film about the sea, with narration and music." },
    cookie,
  );
  if (project.status !== 201) throw new Error(`project: ${project.status}`);
  const { id: projectId } = await project.json();
  const form = new FormData();
  form.append(
    "file",
    new Blob([fs.readFileSync(path.join(root, "public/static/music-demos/demo2.mp3"))], { type: "audio/mpeg" }),
    "Narration.mp3",
  );
  const voice = await fetch(`${url}/api/voice/upload`, { method: "POST", headers: { Cookie: cookie }, body: form });
  if (!voice.ok) throw new Error(`voice: ${voice.status} ${await voice.text()}`);
  // An AI video clip from the local renderer (the Video Hub's Generated section, the library).
  const job = await json("/api/aivideo", { prompt: "Waves rolling onto a pebble beach at dawn, slow pan" }, cookie);
  if (job.status !== 202) throw new Error(`aivideo: ${job.status} ${await job.text()}`);
  const { id: jobId } = await job.json();
  for (let tries = 0; ; tries++) {
    const status = await (
      await fetch(`${url}/api/aivideo/status/${encodeURIComponent(jobId)}`, { headers: { Cookie: cookie } })
    ).json();
    if (status.status === "completed") break;
    if (status.status === "error" || tries > 240) throw new Error(`aivideo: ${status.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { cookie, projectId: String(projectId), jobId: String(jobId) };
}

async function askAssistant(page) {
  const question = page.getByLabel(/question/i).first();
  await question.fill("Which tool turns my sketch into an image?");
  await page.getByRole("button", { name: /^Ask/ }).click();
  // The reply has come in full when the button says Ask again.
  await page.getByRole("button", { name: "Ask", exact: true }).waitFor({ timeout: 15_000 });
  await page.getByText("Answered by").first().waitFor({ timeout: 15_000 });
}

/** The phone's navigation drawer, open. */
async function openMenu(page) {
  await page.getByText("Menu", { exact: true }).click();
  await page.getByRole("link", { name: "Dashboard" }).first().waitFor();
}

/* global document -- the waitForFunction callback runs in the page */
/** Waits until the page is hydrated and nothing is moving, and the welcome toast (dashboard) is gone. */
async function settle(page, keepToasts = false) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main") ?? document.body.firstElementChild;
    const hydrated = !!main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
    return hydrated && document.fonts.status === "loaded";
  });
  if (keepToasts) return;
  await page
    .locator(".Toastify__toast")
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => {});
}

let server;
let browser;
let failed = 0;
try {
  const executablePath = ensureChromium();
  ensureBuild(log);
  server = await launchServer({ dataDirPrefix: "studio-screenshots-" });
  const seeded = await seed(server.url);
  const { projectId, jobId } = seeded;
  if (COMPARE) await seedCompare(server.url, seeded, root);
  const shots = (COMPARE ? compareShots(root) : SHOTS).filter((shot) => !ONLY || ONLY.test(shot.name));
  const notes = [];
  browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
  // localhost (not 127.0.0.1): a secure context, so Secure cookies work over http (as in tests/harness/e2e.mjs).
  const base = server.url.replace("127.0.0.1", "localhost");
  fs.mkdirSync(OUT, { recursive: true });

  for (const shot of shots) {
    const { width, height } = shot.viewport;
    const note = {
      shot: shot.name,
      files: [],
      path: shot.path,
      viewport: `${width}x${height}`,
      theme: shot.theme,
      nativeDialogs: [],
      warnings: [],
    };
    notes.push(note);
    const context = await browser.newContext({
      viewport: shot.viewport,
      reducedMotion: shot.motion ? "no-preference" : "reduce",
      baseURL: base,
      deviceScaleFactor: 1,
    });
    try {
      // The browser signs in itself: its __Host- cookies (decision 0040) come from the answer, as a person's do.
      const login = await context.request.post("/login", {
        form: { email: EMAIL, password: PASSWORD },
        maxRedirects: 0,
      });
      if (login.status() !== 302) throw new Error(`login: ${login.status()}`);
      const theme = await context.request.post("/preferences", {
        form: { intent: "theme", theme: shot.theme, redirectTo: "/" },
        maxRedirects: 0,
      });
      if (theme.status() !== 302) throw new Error(`theme: ${theme.status()}`);
      // Signed in, a choice is kept on the account: every shot says its own (English unless named).
      const language = await context.request.post("/preferences", {
        form: { intent: "language", language: shot.language ?? "en", redirectTo: "/" },
        maxRedirects: 0,
      });
      if (language.status() !== 302) throw new Error(`language: ${language.status()}`);
      const page = await context.newPage();
      const where = shot.path
        .replace("{project}", encodeURIComponent(projectId))
        .replace("{job}", encodeURIComponent(jobId));
      // A native dialog cannot be photographed: it is noted (the compare set's manifest) and dismissed.
      page.on("dialog", (dialog) => {
        note.nativeDialogs.push({ type: dialog.type(), message: dialog.message() });
        dialog.dismiss().catch(() => {});
      });
      page.setDefaultTimeout(COMPARE ? 20_000 : 30_000);
      await page.goto(where);
      // The compare set photographs a screen that changed as it is, with a warning.
      if (shot.wait)
        await page
          .getByText(shot.wait)
          .first()
          .waitFor()
          .catch((error) => {
            if (!COMPARE) throw error;
            note.warnings.push(`"${shot.wait}" not shown`);
          });
      await settle(page, shot.keepToasts).catch((error) => {
        if (!COMPARE) throw error;
        note.warnings.push("the page did not settle (hydration or fonts)");
      });
      if (shot.act)
        await shot.act(page, note).catch((error) => {
          if (!COMPARE) throw error;
          note.warnings.push(`not done: ${String(error?.message ?? error).split("\n")[0]}`);
        });
      if (shot.motion) await page.waitForTimeout(2500);
      const pictures = [[shot.name, await page.screenshot({ type: "png" })]];
      if (shot.full) pictures.push([`${shot.name}-full`, await page.screenshot({ type: "png", fullPage: true })]);
      for (const [name, png] of pictures) {
        const file = path.join(OUT, `${name}.png`);
        // A palette of at most 256 colours: a fraction of the size, and screens have few colours.
        await sharp(png).png({ palette: true, quality: 90, compressionLevel: 9, effort: 10 }).toFile(file);
        note.files.push(`${name}.png`);
        log(`${name}.png ${width}x${height} ${(fs.statSync(file).size / 1024).toFixed(0)} KB`);
      }
      for (const warning of note.warnings) log(`${shot.name}: ${warning}`);
      for (const dialog of note.nativeDialogs) log(`${shot.name}: native ${dialog.type}() "${dialog.message}"`);
      if (shot.after) await shot.after(page, note);
    } catch (error) {
      failed++;
      note.warnings.push(`FAILED: ${String(error?.message ?? error).split("\n")[0]}`);
      log(`${shot.name} FAILED: ${error?.stack ?? error}`);
    } finally {
      await context.close();
    }
  }
  if (COMPARE) writeManifest(OUT, notes);
} catch (error) {
  failed++;
  log(`FAILED: ${error?.stack ?? error}`);
} finally {
  await browser?.close();
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
}
log(failed ? `${failed} failure(s)` : `written to ${path.relative(root, OUT)}/`);
process.exit(failed ? 1 : 0);
