import { editWithSavesFailing } from "../support/e2e-editor";
import { expect, test } from "../support/e2e-test";

// Leaving the editor after a failed save asks in the app's dialog (docs/screens.md#content-view). A
// second try to leave that comes before React has shown the first answer (Cancel, then Back at once)
// must ask again: React Router hands its blocker's states to React in a transition, so "blocked",
// "unblocked" and "blocked" again can reach the screen as one unchanged "blocked".

test("Back again right after Cancel still asks, and Leave then goes", async ({ page }) => {
  const id = await editWithSavesFailing(page, "leave-again", "Typed while the network is gone");
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
