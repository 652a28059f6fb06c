import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

// Leaving the editor after a failed save asks in the app's dialog (docs/screens.md#content-view). A
// second try to leave that comes before React has shown the first answer (Cancel, then Back at once)
// must ask again: React Router hands its blocker's states to React in a transition, so "blocked",
// "unblocked" and "blocked" again can reach the screen as one unchanged "blocked".

async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main") ?? document.body.firstElementChild;
    return !!main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
}

test("Back again right after Cancel still asks, and Leave then goes", async ({ page }) => {
  await signUpAndLogIn(page, "leave-again");
  const created = await page.request.post("/api/content", { data: { title: "Kept", body: "Start" } });
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/content/${id}`);
  await hydrated(page);
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page).toHaveURL(/\?edit=1$/);
  // Every save fails from here on.
  await page.route(`**/api/content/${id}**`, (route) =>
    route.request().method() === "GET" ? route.continue() : route.abort(),
  );
  await page.getByLabel("Body").fill("Typed while the network is gone");
  await page.goBack();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Your changes could not be saved. Leave anyway and lose them?");

  // A slow machine: React's renders take long enough for the second Back to arrive before the first
  // answer (Cancel) is on screen. Cancel and Back come in one go, as from a person's quick hands.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 30 });
  await page.evaluate(() => {
    const cancel = [...document.querySelectorAll<HTMLButtonElement>("[role=alertdialog] button")].find(
      (button) => button.textContent === "Cancel",
    );
    cancel!.click();
    history.back();
  });
  await expect(dialog).toContainText("Your changes could not be saved. Leave anyway and lose them?", {
    timeout: 60_000,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await expect(page).toHaveURL(/\?edit=1$/);
  await expect(page.getByLabel("Body")).toHaveValue("Typed while the network is gone");

  await dialog.getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL(new RegExp(`/content/${id}$`));
  await expect(page.getByRole("link", { name: "Edit", exact: true })).toBeVisible();
});
