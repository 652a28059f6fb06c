// The content editor as the leave-question specs meet it: a new piece opened in edit mode, hydrated,
// with every save failing (docs/screens.md#content-view), and the text typed that cannot be saved.
import { expect, type Page } from "@playwright/test";
import { signUpAndLogIn } from "./e2e-session";
import { hydrated } from "./e2e-test";

/** Signs a new person in, opens a new piece's editor, makes every save fail, types `body`; the piece's id. */
export async function editWithSavesFailing(page: Page, name: string, body: string): Promise<string> {
  await signUpAndLogIn(page, name);
  const created = await page.request.post("/api/content", { data: { title: "Kept", body: "Start" } });
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/content/${id}`);
  await hydrated(page);
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page).toHaveURL(/\?edit=1$/);
  await page.route(`**/api/content/${id}**`, (route) =>
    route.request().method() === "GET" ? route.continue() : route.abort(),
  );
  await page.getByLabel("Body").fill(body);
  return id;
}
