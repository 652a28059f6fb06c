import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";

export const PASSWORD = "correct horse battery";
export const uniqueEmail = (prefix = "e2e") => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/** Registers through the API and signs the page's browser context in (session cookie), fast. */
export async function signUpAndLogIn(page: Page, prefix = "e2e") {
  const email = uniqueEmail(prefix);
  const registered = await page.request.post("/api/auth/register", { data: { email, password: PASSWORD } });
  expect(registered.status()).toBe(201);
  const login = await page.request.post("/login", { form: { email, password: PASSWORD }, maxRedirects: 0 });
  expect(login.status()).toBe(302);
  return { email, password: PASSWORD };
}
