import { z } from "zod";
import { oneTimeCookie } from "~/lib/screens/one-time-cookie.server";
import { EMAIL_MAX } from "~/common/account-rules";

/**
 * What the login screen says on arrival (docs/screens.md#sign-in-screens), left by the answer before it:
 * the email a new account was just made with (the form opens with it; never the password), or that
 * the person has just signed out. Read once, then cleared; the address stays /login.
 */
export const loginNote = oneTimeCookie(
  "login-note",
  z.object({ email: z.string().max(EMAIL_MAX).optional(), signedOut: z.boolean().optional() }),
);
