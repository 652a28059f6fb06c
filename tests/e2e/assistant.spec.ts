import { expect, test } from "@playwright/test";
import { signUpAndLogIn } from "./helpers";

test("assistant: voices load, blank questions are ignored, a reply streams in, growing, and is spoken when whole", async ({ page }) => {
  await signUpAndLogIn(page, "assistant");
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/assistant/")) asked.push(`${new URL(request.url()).pathname} ${request.postData() ?? ""}`);
  });
  // Slow the voice list a little so its loading state is seen.
  await page.route("**/api/voice/voices", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });

  await page.goto("/assistant");
  await expect(page.getByRole("heading", { name: /AI Assistant/ })).toBeVisible();
  await expect(page.getByTestId("offline-badge")).toHaveText("Offline assistant");
  const voice = page.getByLabel("Voice");
  await expect(voice.locator("option")).toHaveText(["Loading voices..."]);
  await expect(voice.locator("option").first()).toHaveText("English (America)");
  await expect(page.getByLabel("Auto-Speak")).toBeChecked();
  await voice.selectOption({ label: "English (Received Pronunciation)" });

  // SPEC §5: an empty or whitespace question is ignored.
  await page.getByLabel("Your question").fill("   ");
  await page.getByRole("button", { name: "Ask" }).click();
  await page.waitForTimeout(300);
  expect(asked).toHaveLength(0);

  // Every text the reply box shows, as it changes (the offline assistant streams word by word).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as any).__replyTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector("[data-testid=assistant-reply]")?.textContent ?? "";
      if (text && text !== seen.at(-1)) seen.push(text);
    }).observe(document.querySelector("section[aria-label=Reply]")!, { subtree: true, childList: true, characterData: true });
  });
  const speech = page.waitForResponse((response) => response.url().includes("/api/voice/generate"));
  const audioFile = page.waitForResponse((response) => /\/media\/[\w-]+$/.test(new URL(response.url()).pathname) && response.request().method() === "GET");
  await page.getByLabel("Your question").fill("How do I use the Drawing Pad?");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
  await expect(page.getByText("Answered by the offline assistant")).toBeVisible();
  expect(asked).toEqual([`/api/assistant/stream ${JSON.stringify({ message: "How do I use the Drawing Pad?" })}`]);
  // Whole once the screen is done asking (the button reads "Asking..." meanwhile).
  await expect(page.getByRole("button", { name: "Ask", exact: true })).toBeEnabled();
  await expect(page.getByLabel("Reply")).toHaveAttribute("aria-busy", "false");
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
  // Spoken once, when whole: the whole reply, not a piece of it.
  expect(JSON.parse(generated.request().postData()!).text).toBe(finalReply!.trim());
  const audio = await audioFile;
  expect([200, 206]).toContain(audio.status());
  expect(audio.headers()["content-type"]).toBe("audio/wav");
  const player = page.getByTestId("reply-audio");
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((element: HTMLAudioElement) => element.duration), { timeout: 10_000 }).toBeGreaterThan(1);

  // Speak Reply asks again.
  const again = page.waitForResponse((response) => response.url().includes("/api/voice/generate"));
  await page.getByRole("button", { name: "Speak Reply" }).click();
  expect((await again).status()).toBe(201);
});

test("assistant: Ctrl/Cmd+Enter asks, Enter alone is a new line, and the visit's questions and replies show as a list", async ({ page }) => {
  await signUpAndLogIn(page, "assistant-keys");
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/assistant/")) asked.push(JSON.parse(request.postData() ?? "{}").message);
  });
  await page.goto("/assistant");
  await expect(page.getByLabel("Voice").locator("option").first()).toHaveText("English (America)");
  await page.getByLabel("Auto-Speak").uncheck();
  const question = page.getByLabel("Your question");

  // Enter alone: a new line, nothing sent.
  await question.fill("How do I use the Drawing Pad?");
  await question.press("Enter");
  await question.pressSequentially("Briefly.");
  await expect(question).toHaveValue("How do I use the Drawing Pad?\nBriefly.");
  await page.waitForTimeout(300);
  expect(asked).toEqual([]);

  // Ctrl+Enter sends.
  await question.press("Control+Enter");
  await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
  await expect(page.getByRole("button", { name: "Ask", exact: true })).toBeEnabled();
  expect(asked).toEqual(["How do I use the Drawing Pad?\nBriefly."]);
  await expect(question).toHaveValue("How do I use the Drawing Pad?\nBriefly.");

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

test("assistant: fallback voice, no options, and failures say 'Something went wrong.'", async ({ page }) => {
  await signUpAndLogIn(page, "assistant-fail");
  await page.route("**/api/voice/voices", (route) => route.fulfill({ status: 500, json: { detail: "down" } }));
  await page.goto("/assistant");
  await expect(page.getByLabel("Voice").locator("option")).toHaveText(["Creative Voice"]);

  await page.route("**/api/assistant/stream", (route) => route.fulfill({ status: 502, json: { detail: "Something went wrong." } }));
  await page.getByLabel("Your question").fill("Anything?");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByRole("alert")).toHaveText("Something went wrong.");

  // A stream that fails midway says the same (the event carries SPEC's text).
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
    expect(await page.getByTestId("reply-audio").getAttribute("src")).toMatch(/^\/media\/[\w-]+$/);
  });

  test("assistant: a plain form post renders the reply and its spoken audio in the page", async ({ page }) => {
    await signUpAndLogIn(page, "assistant-nojs");
    await page.request.post("/api/content", { data: { title: "Lighthouse notes", body: "The lamp turns every twelve seconds." } });
    await page.goto("/assistant");
    await page.getByLabel("Your question").fill("What did I write about the lighthouse?");
    await page.getByRole("button", { name: "Ask" }).click();
    await expect(page.getByTestId("assistant-reply")).toContainText("Lighthouse notes");
    await expect(page.getByTestId("assistant-reply")).toContainText("twelve seconds");
    const src = await page.getByTestId("reply-audio").getAttribute("src");
    expect(src).toMatch(/^\/media\/[\w-]+$/);
    const audio = await page.request.get(src!);
    expect(audio.status()).toBe(200);
    expect(audio.headers()["content-type"]).toBe("audio/wav");
  });
});
