import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

test("assistant: voices load, blank questions are ignored, a reply streams in, growing, and is spoken when whole", async ({
  page,
}) => {
  await signUpAndLogIn(page, "assistant");
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/assistant/"))
      asked.push(`${new URL(request.url()).pathname} ${request.postData() ?? ""}`);
  });
  // The voice list's answer is held until its loading state has been seen, then let through.
  let releaseVoices!: () => void;
  const voicesHeld = new Promise<void>((resolve) => (releaseVoices = resolve));
  await page.route("**/api/voice/voices", async (route) => {
    await voicesHeld;
    await route.continue();
  });

  await page.goto("/assistant");
  await expect(page.getByRole("heading", { name: /AI Assistant/ })).toBeVisible();
  await expect(page.getByTestId("offline-badge")).toHaveText("Offline assistant");
  const voice = page.getByLabel("Voice");
  await expect(voice.locator("option")).toHaveText(["Loading voices..."]);
  releaseVoices();
  await expect(voice.locator("option").first()).toHaveText("English (America)");
  await expect(page.getByLabel("Auto-Speak")).toBeChecked();
  await voice.selectOption({ label: "English (Received Pronunciation)" });

  // docs/screens.md#validation-rules: an empty or whitespace question is ignored: the box keeps it (a
  // question sent clears the box) and nothing is asked. The next question's requests, counted below,
  // are the first the page makes: nothing went out for this one before them.
  await page.getByLabel("Your question").fill("   ");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByLabel("Your question")).toHaveValue("   ");
  expect(asked).toHaveLength(0);

  // Every text the reply box shows, as it changes (the offline assistant streams word by word).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as any).__replyTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector("[data-testid=assistant-reply]")?.textContent ?? "";
      if (text && text !== seen.at(-1)) seen.push(text);
    }).observe(document.querySelector("section[aria-label=Reply]")!, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  const speech = page.waitForResponse((response) => response.url().includes("/api/voice/generate"));
  const audioFile = page.waitForResponse(
    (response) =>
      /\/media\/spoken\/[\w-]+$/.test(new URL(response.url()).pathname) && response.request().method() === "GET",
  );
  await page.getByLabel("Your question").fill("How do I use the Drawing Pad?");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
  await expect(page.getByText("Answered by the offline assistant")).toBeVisible();
  // The first question makes the conversation it is kept in (docs/api.md#assistant-conversations), then streams.
  expect(asked).toHaveLength(2);
  expect(asked[0]).toBe("/api/assistant/conversations {}");
  expect(asked[1]).toMatch(/^\/api\/assistant\/stream /);
  expect(JSON.parse(asked[1].slice("/api/assistant/stream ".length))).toEqual({
    message: "How do I use the Drawing Pad?",
    conversation_id: expect.any(String),
  });
  // Whole once the screen is done asking (the button reads "Asking..." meanwhile).
  await expect(page.getByRole("button", { name: "Ask", exact: true })).toBeEnabled();
  // The region by its role: "The reply, spoken" (the audio, once it comes) is a label containing "Reply" too.
  await expect(page.getByRole("region", { name: "Reply", exact: true })).toHaveAttribute("aria-busy", "false");
  const finalReply = await page.getByTestId("assistant-reply").textContent();
  expect(finalReply).toMatch(/download\.$/);
  // The reply grew: many texts, each one the start of the next, ending with the whole reply.
  const texts: string[] = await page.evaluate(() => (window as any).__replyTexts);
  expect(texts.length).toBeGreaterThan(3);
  expect(texts.at(-1)).toBe(finalReply);
  for (const [index, text] of texts.slice(1).entries()) expect(text.startsWith(texts[index])).toBe(true);

  // Auto-Speak: speech is generated in the chosen voice, and the audio file is requested and served.
  const generated = await speech;
  expect(generated.status()).toBe(201);
  expect(JSON.parse(generated.request().postData()!).voice_id).toBe("gmw/en-GB-x-rp");
  // Not kept: the assistant's speech is never filed in the library (decision 0042).
  expect(JSON.parse(generated.request().postData()!).keep).toBe(false);
  // Spoken once, when whole: the whole reply, not a piece of it.
  expect(JSON.parse(generated.request().postData()!).text).toBe(finalReply!.trim());
  const audio = await audioFile;
  expect([200, 206]).toContain(audio.status());
  expect(audio.headers()["content-type"]).toBe("audio/wav");
  const player = page.getByTestId("reply-audio");
  await expect(player).toBeVisible();
  await expect
    .poll(() => player.evaluate((element: HTMLAudioElement) => element.duration), { timeout: 10_000 })
    .toBeGreaterThan(1);

  // Speak Reply asks again.
  const again = page.waitForResponse((response) => response.url().includes("/api/voice/generate"));
  await page.getByRole("button", { name: "Speak Reply" }).click();
  expect((await again).status()).toBe(201);
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`assistant: Enter and Ctrl/Cmd+Enter ask, Shift+Enter is a new line, and the questions and replies show as a list at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "assistant-keys");
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/assistant/stream")) asked.push(JSON.parse(request.postData() ?? "{}").message);
    });
    await page.goto("/assistant");
    await expect(page.getByLabel("Voice").locator("option").first()).toHaveText("English (America)");
    await page.getByLabel("Auto-Speak").uncheck();
    const question = page.getByLabel("Your question");

    // Shift+Enter: a new line, nothing sent.
    await question.fill("How do I use the Drawing Pad?");
    await question.press("Shift+Enter");
    await question.pressSequentially("Briefly.");
    await expect(question).toHaveValue("How do I use the Drawing Pad?\nBriefly.");
    // Nothing sent: Ctrl+Enter's question below is the first the page asks (`asked` is checked whole then).
    expect(asked).toEqual([]);

    // Ctrl+Enter sends, and the box clears.
    await question.press("Control+Enter");
    await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
    await expect(page.getByRole("button", { name: "Ask", exact: true })).toBeEnabled();
    expect(asked).toEqual(["How do I use the Drawing Pad?\nBriefly."]);
    await expect(question).toHaveValue("");

    // Cmd+Enter (Meta) sends the next one; the first exchange stays above it.
    await question.fill("How do I record a voice memo?");
    await question.press("Meta+Enter");
    const conversation = page.getByRole("list", { name: "Conversation" });
    await expect(conversation.getByRole("listitem")).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Ask", exact: true })).toBeEnabled();
    expect(asked).toEqual(["How do I use the Drawing Pad?\nBriefly.", "How do I record a voice memo?"]);
    const [first, second] = await conversation.getByRole("listitem").all();
    await expect(first.locator(".ai-question")).toHaveText("You asked: How do I use the Drawing Pad?\nBriefly.");
    await expect(first.locator(".ai-reply-text")).toContainText("Drawing Pad (/drawing)");
    await expect(first.getByText("Answered by the offline assistant")).toBeVisible();
    await expect(second.locator(".ai-question")).toHaveText("You asked: How do I record a voice memo?");
    await expect(second.getByTestId("assistant-reply")).toContainText("/voicememo");
    await expect(second.getByText("Answered by the offline assistant")).toBeVisible();
  });
}

test("assistant: fallback voice, no options, and failures say 'Something went wrong.'", async ({ page }) => {
  await signUpAndLogIn(page, "assistant-fail");
  await page.route("**/api/voice/voices", (route) => route.fulfill({ status: 500, json: { detail: "down" } }));
  await page.goto("/assistant");
  await expect(page.getByLabel("Voice").locator("option")).toHaveText(["Creative Voice"]);

  await page.route("**/api/assistant/stream", (route) =>
    route.fulfill({ status: 502, json: { detail: "Something went wrong." } }),
  );
  await page.getByLabel("Your question").fill("Anything?");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByRole("alert")).toHaveText("Something went wrong.");

  // A stream that fails midway says the same (the event carries the text in docs/screens.md#error-messages).
  await page.unroute("**/api/assistant/stream");
  await page.route("**/api/assistant/stream", (route) =>
    route.fulfill({
      status: 200,
      headers: { "Content-Type": "text/event-stream" },
      body: 'data: {"delta":"Half a"}\n\ndata: {"error":"Something went wrong."}\n\n',
    }),
  );
  await page.getByLabel("Your question").fill("Anything else?");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByRole("alert")).toHaveText("Something went wrong.");
  await expect(page.getByTestId("assistant-reply")).toHaveCount(0);

  await page.unroute("**/api/voice/voices");
  await page.route("**/api/voice/voices", (route) => route.fulfill({ json: { voices: [] } }));
  await page.reload();
  await expect(page.getByLabel("Voice").locator("option")).toHaveText(["No Options"]);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("assistant: the voices come with the page, and the chosen one is used", async ({ page }) => {
    await signUpAndLogIn(page, "assistant-nojs-voices");
    await page.goto("/assistant");
    const voice = page.getByLabel("Voice");
    await expect(voice).toBeEnabled();
    await expect(voice.locator("option").first()).toHaveText("English (America)");
    await expect(voice).toHaveValue("gmw/en-US");
    const names = await voice.locator("option").allTextContents();
    expect(names.length).toBeGreaterThan(2);
    expect(names).not.toContain("Loading voices...");
    expect(names).toContain("English (Received Pronunciation)");

    await voice.selectOption({ label: "English (Received Pronunciation)" });
    await page.getByLabel("Your question").fill("How do I use the Drawing Pad?");
    await page.getByRole("button", { name: "Ask" }).click();
    await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
    // The post carried the choice: the page comes back with it selected and the reply spoken.
    await expect(page.getByLabel("Voice")).toHaveValue("gmw/en-GB-x-rp");
    expect(await page.getByTestId("reply-audio").getAttribute("src")).toMatch(/^\/media\/spoken\/[\w-]+$/);
  });

  test("assistant: a plain form post renders the reply and its spoken audio in the page", async ({ page }) => {
    await signUpAndLogIn(page, "assistant-nojs");
    await page.request.post("/api/content", {
      data: { title: "Lighthouse notes", body: "The lamp turns every twelve seconds." },
    });
    await page.goto("/assistant");
    await page.getByLabel("Your question").fill("What did I write about the lighthouse?");
    await page.getByRole("button", { name: "Ask" }).click();
    await expect(page.getByTestId("assistant-reply")).toContainText("Lighthouse notes");
    await expect(page.getByTestId("assistant-reply")).toContainText("twelve seconds");
    const src = await page.getByTestId("reply-audio").getAttribute("src");
    expect(src).toMatch(/^\/media\/spoken\/[\w-]+$/);
    const audio = await page.request.get(src!);
    expect(audio.status()).toBe(200);
    expect(audio.headers()["content-type"]).toBe("audio/wav");
  });
});

/** axe-core finds nothing in the reply's section (the players and the save controls), as tests/e2e/accessibility.spec.ts asks of every screen. */
async function expectAccessibleReplies(page: Page) {
  const results = await new AxeBuilder({ page })
    .include("section[aria-label=Reply]")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
}

/** How many files the signed-in person's library holds (the page's own session). */
async function libraryTotal(page: Page): Promise<number> {
  const answer = await page.request.get("/api/library");
  expect(answer.status()).toBe(200);
  return (await answer.json()).total;
}

// Decision 0042: the assistant's speech is not filed in the library; "Save to library" keeps one on purpose.
for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`assistant at ${viewport.width}px: Auto-Speak leaves the library as it was, and Save to library adds exactly that reply`, async ({
    page,
  }) => {
    // Two spoken replies, a save and an axe run: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "assistant-keep");
    await page.goto("/assistant");
    await expect(page.getByLabel("Voice").locator("option").first()).toHaveText("English (America)");
    expect(await libraryTotal(page)).toBe(0);

    // Two questions, each spoken by Auto-Speak: two players, nothing filed.
    for (const [index, message] of ["How do I use the Drawing Pad?", "How do I record a voice memo?"].entries()) {
      const spoken = page.waitForResponse((response) => response.url().includes("/api/voice/generate"));
      await page.getByLabel("Your question").fill(message);
      await page.getByRole("button", { name: "Ask", exact: true }).click();
      const generated = await spoken;
      expect(generated.status()).toBe(201);
      expect(JSON.parse(generated.request().postData()!).keep).toBe(false);
      await expect(page.locator(".ai-exchange audio")).toHaveCount(index + 1);
    }
    const player = page.getByTestId("reply-audio");
    await expect(player).toHaveAttribute("src", /^\/media\/spoken\/[\w-]+$/);
    await expect
      .poll(() => player.evaluate((element: HTMLAudioElement) => element.duration), { timeout: 10_000 })
      .toBeGreaterThan(1);
    expect(await libraryTotal(page)).toBe(0);

    // "Save to library" under the second reply keeps that one: a toast, the button says so, one file.
    const second = page.getByRole("list", { name: "Conversation" }).getByRole("listitem").nth(1);
    const keep = page.waitForResponse((response) => /\/api\/voice\/spoken\/[\w-]+\/keep$/.test(response.url()));
    await second.getByRole("button", { name: "Save to library" }).click();
    expect((await keep).status()).toBe(201);
    await expect(second.getByRole("button", { name: "In your library" })).toBeDisabled();
    await expect(second.getByRole("link", { name: "Open library" })).toBeVisible();
    await expect(page.getByText(/Saved to your library: speech-.*\.wav/)).toBeVisible();
    const library = await (await page.request.get("/api/library")).json();
    expect(library.total).toBe(1);
    expect(library.files[0]).toMatchObject({
      kind: "speech",
      provenance: { prompt: expect.stringContaining("/voicememo") },
    });
    // The first reply's speech is still unkept, and the saved one keeps playing from its player.
    await expect(
      page
        .getByRole("list", { name: "Conversation" })
        .getByRole("listitem")
        .first()
        .getByRole("button", { name: "Save to library" }),
    ).toBeEnabled();
    expect((await page.request.get((await player.getAttribute("src"))!)).status()).toBe(200);
    // Nothing scrolls sideways at either width, and the replies' controls pass axe.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessibleReplies(page);
  });
}

test.describe("with JavaScript off, saving", () => {
  test.use({ javaScriptEnabled: false });

  test("assistant: the spoken reply is not filed, and its Save to library form keeps it and says so", async ({
    page,
  }) => {
    await signUpAndLogIn(page, "assistant-nojs-keep");
    await page.goto("/assistant");
    await page.getByLabel("Your question").fill("How do I use the Drawing Pad?");
    await page.getByRole("button", { name: "Ask" }).click();
    await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
    const src = await page.getByTestId("reply-audio").getAttribute("src");
    expect(src).toMatch(/^\/media\/spoken\/[\w-]+$/);
    expect(await libraryTotal(page)).toBe(0);

    await page.getByRole("button", { name: "Save to library" }).click();
    // The page comes back with the reply, its player (now the library file) and where it went.
    await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
    await expect(page.getByRole("status").filter({ hasText: "In your library" })).toContainText(/speech-.*\.wav/);
    await expect(page.getByRole("link", { name: "Open library" })).toBeVisible();
    const kept = await page.getByTestId("reply-audio").getAttribute("src");
    expect(kept).toBe(src!.replace("/media/spoken/", "/media/"));
    expect((await page.request.get(kept!)).status()).toBe(200);
    expect(await libraryTotal(page)).toBe(1);
    // The voice asked with stays chosen.
    await expect(page.getByLabel("Voice")).toHaveValue("gmw/en-US");
  });
});
