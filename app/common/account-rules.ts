import { z } from "zod";

/** Account field rules, shared by the API, the forms and the tests. */
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export const emailSchema = z
  .string({ error: "Email is required" })
  .trim()
  .toLowerCase()
  .min(1, "Email is required")
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email({ error: "Enter a valid email address" }));

export const passwordSchema = z
  .string({ error: "Password is required" })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const credentialsSchema = z.object({ email: emailSchema, password: passwordSchema });

/** Login only needs something to check: the length rules apply to new passwords. */
export const loginSchema = z.object({
  email: z.string({ error: "Email is required" }).trim().toLowerCase().min(1, "Email is required").max(EMAIL_MAX),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(PASSWORD_MAX),
});
