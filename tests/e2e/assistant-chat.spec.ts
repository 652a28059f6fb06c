import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";
import { answerAppDialog, appDialog } from "../support/app-dialog";

/**
 * The assistant as a chat (docs/screens.md#assistant-conversations, decision 0064): Enter sends, the box
 * clears and keeps focus, the newest reply comes into view, one voice at a time, and conversations are
 * kept (a list beside the chat, a drawer on phones) and work without JavaScript.
 */
const SEND_HINT = "Enter sends · Shift+Enter adds a line · Ctrl/Cmd+Enter also sends";

async function openAssistant(page: Page, path = "/assistant") {
  await page.goto(path);
  await expect(page.getByLabel("Voice").locator("option").first()).toHaveText("English (America)");
}

/** Asks through the API, so a conversation exists before the page opens. */
async function storedConversation(page: Page, questions: string[], title?: string) {
  const made = await page.request.post("/api/assistant/conversations", { data: title ? { title } : {} });
  expect(made.status()).toBe(201);
  const { id } = await made.json();
  for (const message of questions) {
    const asked = await page.request.post("/api/assistant/message", { data: { message, conversation_id: id } });
    expect(asked.status()).toBe(200);
  }
  return id as string;
}

/** Opens the list: on a phone through its button (a drawer), on a wide screen it stands beside the chat. */
async function openList(page: Page, phone: boolean) {
  const list = page.getByRole("navigation", { name: "Conversations" });
  if (phone) {
    await expect(list).toBeHidden();
    await page.getByRole("button", { name: "Conversations" }).click();
  }
  await expect(list).toBeVisible();
  return list;
}

/** How many of the page's players are playing, and the most that ever played at once (recorded on every start). */
async function watchVoices(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __players: Set<HTMLAudioElement>; __mostAtOnce: number };
    w.__players = new Set();
    w.__mostAtOnce = 0;
    document.addEventListener(
      "playing",
      (event) => {
        w.__players.add(event.target as HTMLAudioElement);
        const playing = [...w.__players].filter((element) => !element.paused).length;
        w.__mostAtOnce = Math.max(w.__mostAtOnce, playing);
      },
      true,
    );
  });
}
/**
 * Players not paused: those on the page and any that ever played. A player is playing from its play() call on,
 * before its "playing" event, which on a busy machine comes later.
 */
const playingNow = (page: Page) =>
  page.evaluate(() => {
    const players = new Set([
      ...document.querySelectorAll("audio"),
      ...(window as unknown as { __players: Set<HTMLAudioElement> }).__players,
    ]);
    return [...players].filter((element) => !element.paused).length;
  });
const mostAtOnce = (page: Page) => page.evaluate(() => (window as unknown as { __mostAtOnce: number }).__mostAtOnce);
const playing = (page: Page, index: number) =>
  page
    .locator(".ai-exchange audio")
    .nth(index)
    .evaluate((element: HTMLAudioElement) => !element.paused);

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  const phone = viewport.width < 600;
  test.describe(`assistant chat at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("Enter sends, Shift+Enter adds a line, the box clears and keeps focus, the newest reply is in view, and a reload keeps the conversation", async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await signUpAndLogIn(page, "chat-keys");
      const sent: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/api/assistant/stream")) sent.push(JSON.parse(request.postData()!).message);
      });
      await openAssistant(page);
      await page.getByLabel("Auto-Speak").uncheck();
      const box = page.getByLabel("Your question");
      await expect(page.locator("#ai-send-hint")).toHaveText(SEND_HINT);

      await box.fill("How do I use the Drawing Pad?");
      await box.press("Shift+Enter");
      await box.pressSequentially("Briefly.");
      await expect(box).toHaveValue("How do I use the Drawing Pad?\nBriefly.");
      expect(sent).toEqual([]);

      await box.press("Enter");
      await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
      await expect(box).toHaveValue("");
      await expect(box).toBeFocused();
      expect(sent).toEqual(["How do I use the Drawing Pad?\nBriefly."]);
      await expect(page).toHaveURL(/\/assistant\?c=[\w-]+$/);

      // More questions, by Enter and by Ctrl+Enter: each newest question and its reply come into view.
      for (const [index, [question, key, answer]] of [
        ["How do I record a voice memo?", "Enter", "/voicememo"],
        ["How do I make an image?", "Control+Enter", "/image"],
        ["What is the Video Hub?", "Meta+Enter", "/videos"],
      ].entries()) {
        await box.fill(question);
        await box.press(key);
        const newest = page.locator(".ai-exchange").nth(index + 1);
        await expect(newest.locator(".ai-reply-text")).toContainText(answer);
        await expect(page.getByRole("button", { name: "Ask", exact: true })).toBeEnabled();
        await expect(newest.locator(".ai-question")).toBeInViewport();
        await expect(newest.locator(".ai-reply-text")).toBeInViewport();
        await expect(box).toHaveValue("");
        await expect(box).toBeFocused();
      }
      expect(sent).toHaveLength(4);

      // A reload shows the same conversation, titled by its first question, in the list.
      await page.reload();
      await expect(page.locator(".ai-exchange")).toHaveCount(4);
      await expect(page.locator(".ai-exchange").first().locator(".ai-question")).toContainText(
        "How do I use the Drawing Pad?",
      );
      await expect(page.getByTestId("conversation-title")).toHaveText("How do I use the Drawing Pad? Briefly.");
      const list = await openList(page, phone);
      await expect(list.getByRole("link", { name: "How do I use the Drawing Pad? Briefly." })).toHaveAttribute(
        "aria-current",
        "page",
      );
    });

    test("one voice at a time: a new reply, Speak Reply, a player started by hand and leaving the page stop what plays", async ({
      page,
    }) => {
      test.setTimeout(150_000);
      await signUpAndLogIn(page, "chat-voice");
      await openAssistant(page);
      await watchVoices(page);
      const box = page.getByLabel("Your question");

      await box.fill("How do I use the Drawing Pad?");
      await box.press("Enter");
      await expect.poll(() => playing(page, 0), { timeout: 45_000 }).toBe(true);

      // A second question while the first reply speaks: its reply speaks, the first stops.
      await box.fill("How do I record a voice memo?");
      await box.press("Enter");
      await expect.poll(() => playing(page, 1), { timeout: 45_000 }).toBe(true);
      expect(await playing(page, 0)).toBe(false);
      expect(await playingNow(page)).toBe(1);

      // Playing the first by hand stops the second.
      await page
        .locator(".ai-exchange audio")
        .nth(0)
        .evaluate((element: HTMLAudioElement) => element.play());
      await expect.poll(() => playing(page, 1)).toBe(false);
      expect(await playing(page, 0)).toBe(true);

      // Speak Reply speaks the newest reply again, alone.
      const again = page.waitForResponse((response) => response.url().includes("/api/voice/generate"));
      await page.getByRole("button", { name: "Speak Reply" }).click();
      expect((await again).status()).toBe(201);
      await expect.poll(() => playing(page, 1), { timeout: 45_000 }).toBe(true);
      expect(await playing(page, 0)).toBe(false);
      expect(await mostAtOnce(page)).toBe(1);

      // Leaving the page: nothing plays on.
      await page.evaluate(() => {
        (window as unknown as { __kept: HTMLAudioElement[] }).__kept = [...document.querySelectorAll("audio")];
      });
      // In-app navigation (the screen's way back, or the sidebar's link): the page is left, the document stays.
      await page
        .getByRole("link", { name: /Dashboard/ })
        .filter({ visible: true })
        .first()
        .click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect
        .poll(() =>
          page.evaluate(() =>
            (window as unknown as { __kept: HTMLAudioElement[] }).__kept.every((element) => element.paused),
          ),
        )
        .toBe(true);
      expect(await mostAtOnce(page)).toBe(1);
    });

    test("the conversation list: open, rename, delete (asked first, Escape cancels) and New conversation", async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await signUpAndLogIn(page, "chat-list");
      await storedConversation(page, ["How do I use the Drawing Pad?"], "Drawing help");
      await storedConversation(page, ["How do I record a voice memo?", "What is the Video Hub?"], "Memo help");
      await openAssistant(page);
      await expect(page.locator(".ai-exchange")).toHaveCount(0);

      // Open: the list (newest first), then the chosen conversation's exchanges.
      let list = await openList(page, phone);
      await expect(list.getByRole("listitem").getByRole("link")).toHaveText(["Memo help", "Drawing help"]);
      await list.getByRole("link", { name: "Memo help" }).click();
      await expect(page.locator(".ai-exchange")).toHaveCount(2);
      await expect(page.locator(".ai-exchange").nth(1).locator(".ai-reply-text")).toContainText("/videos");
      await expect(page.getByTestId("conversation-title")).toHaveText("Memo help");
      if (phone) await expect(list).toBeHidden();

      // Rename.
      list = await openList(page, phone);
      await list.getByText("Rename").click();
      await list.getByLabel("New title").fill("Memos and videos");
      await list.getByRole("button", { name: "Save title" }).click();
      await expect(list.getByRole("link", { name: "Memos and videos" })).toBeVisible();
      await expect(page.getByTestId("conversation-title")).toHaveText("Memos and videos");

      // Delete asks first, in the app: focus on Cancel, Escape cancels and focus returns to Delete.
      await list.getByRole("button", { name: "Delete" }).click();
      const question = appDialog(page, "Delete the conversation “Memos and videos”?");
      await expect(question).toBeVisible();
      await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(question).toHaveCount(0);
      await expect(list.getByRole("button", { name: "Delete" })).toBeFocused();
      await list.getByRole("button", { name: "Delete" }).click();
      await answerAppDialog(page, "Delete the conversation “Memos and videos”?", "Delete");
      await expect(page).toHaveURL(/\/assistant$/);
      list = await openList(page, phone);
      await expect(list.getByRole("listitem").getByRole("link")).toHaveText(["Drawing help"]);
      const gone = await page.request.get("/api/assistant/conversations");
      expect((await gone.json()).map((c: { title: string }) => c.title)).toEqual(["Drawing help"]);

      // New conversation: from an open one back to an empty chat, whose first question makes a new one.
      await list.getByRole("link", { name: "Drawing help" }).click();
      await expect(page.locator(".ai-exchange")).toHaveCount(1);
      list = await openList(page, phone);
      await list.getByRole("link", { name: "New conversation" }).click();
      await expect(page).toHaveURL(/\/assistant$/);
      await expect(page.locator(".ai-exchange")).toHaveCount(0);
      await expect(page.getByText("The reply appears here.")).toBeVisible();
      await page.getByLabel("Auto-Speak").uncheck();
      await page.getByLabel("Your question").fill("How do I make an image?");
      await page.getByLabel("Your question").press("Enter");
      await expect(page.getByTestId("assistant-reply")).toContainText("/image");
      await expect(page).toHaveURL(/\/assistant\?c=[\w-]+$/);
      list = await openList(page, phone);
      await expect(list.getByRole("listitem").getByRole("link")).toHaveText([
        "How do I make an image?",
        "Drawing help",
      ]);
      // Nothing sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  });
}

test.describe("assistant chat with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 667 },
  ]) {
    test(`plain forms and links at ${viewport.width}x${viewport.height}: ask, ask again in the same conversation, open, rename and delete`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await page.setViewportSize(viewport);
      await signUpAndLogIn(page, "chat-nojs");
      await page.goto("/assistant");
      await expect(page.locator("#ai-send-hint")).toHaveText("Ask sends your question.");
      await page.getByLabel("Auto-Speak").uncheck();
      await page.getByLabel("Your question").fill("How do I use the Drawing Pad?");
      await page.getByRole("button", { name: "Ask" }).click();
      await expect(page.getByTestId("assistant-reply")).toContainText("Drawing Pad (/drawing)");
      const list = page.getByRole("navigation", { name: "Conversations" });
      await expect(list.getByRole("link", { name: "How do I use the Drawing Pad?" })).toBeVisible();

      // The next question goes to the same conversation.
      await page.getByLabel("Your question").fill("How do I record a voice memo?");
      await page.getByRole("button", { name: "Ask" }).click();
      await expect(page.locator(".ai-exchange")).toHaveCount(2);
      await expect(page.getByTestId("assistant-reply")).toContainText("/voicememo");
      await expect(page).toHaveURL(/\/assistant\?c=[\w-]+$/);
      const conversations = await (await page.request.get("/api/assistant/conversations")).json();
      expect(conversations).toHaveLength(1);

      // Open it by its link from a fresh page.
      await page.goto("/assistant");
      await expect(page.locator(".ai-exchange")).toHaveCount(0);
      await list.getByRole("link", { name: "How do I use the Drawing Pad?" }).click();
      await expect(page.locator(".ai-exchange")).toHaveCount(2);

      // Rename (a form in a disclosure).
      await list.getByText("Rename").click();
      await list.getByLabel("New title").fill("Tools I asked about");
      await list.getByRole("button", { name: "Save title" }).click();
      await expect(list.getByRole("link", { name: "Tools I asked about" })).toHaveAttribute("aria-current", "page");

      // Delete: a confirmation step first; Cancel keeps it, Delete removes it.
      await list.getByRole("link", { name: "Delete" }).click();
      await expect(list.getByRole("alertdialog")).toContainText("Delete the conversation “Tools I asked about”?");
      await list.getByRole("link", { name: "Cancel" }).click();
      await expect(list.getByRole("alertdialog")).toHaveCount(0);
      await list.getByRole("link", { name: "Delete" }).click();
      await list.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
      await expect(page).toHaveURL(/\/assistant$/);
      await expect(list.getByText("No conversations yet.")).toBeVisible();
      expect(await (await page.request.get("/api/assistant/conversations")).json()).toEqual([]);
    });
  }
});
