import { data, redirect } from "react-router";
import { dataWithError, dataWithSuccess, redirectWithError, redirectWithSuccess } from "./toast.server";

/**
 * The `enhanced` answer: one action, two shapes of answer, chosen by who posted.
 *
 * - A plain HTML form (JavaScript off, or not hydrated yet) gets a redirect: post, redirect, get, so a
 *   reload never posts twice, and the flash toast (if any) says what happened on the page it lands on.
 * - The screen's script gets data to act on in place (a fetcher's `data`: the row goes, the alert
 *   shows, the timed redirect of docs/screens.md#error-messages runs).
 *
 * Browsers send the same request for both, so the script says so with the form field `enhanced=1`:
 * ~/components/ui/enhanced-field.tsx adds it to a form once hydrated (a form rendered on the server
 * posts without it until then), and fetchers set it themselves (`fetcher.submit({ ..., enhanced: "1" })`).
 * `answersWithData` reads the field. It only chooses the shape of the answer, never
 * what the action does or allows: the same checks run, the same change is made, either way.
 */

/**
 * Whether the post came from the screen's script (a `useFetcher` submission, `enhanced=1`), which reads
 * the answer as data, rather than from a plain HTML form (JavaScript off), which follows a redirect.
 */
export const answersWithData = (form: FormData): boolean => form.get("enhanced") === "1";

/** A toast with the answer: a flash message after the redirect; with `withData`, on the data too. */
export interface EnhancedToast {
  type: "success" | "error";
  message: string;
  /** The fetcher's answer carries the toast too (the item it came from may be gone by then). */
  withData?: boolean;
}

export interface EnhancedAnswer<D> {
  /** What a fetcher (`enhanced=1`) reads. */
  data: D;
  /** The data's status (200 unless said) and headers. */
  init?: ResponseInit;
  /** Where a plain form goes (a 302). */
  redirectTo: string;
  /** The redirect's headers (a cookie); its status stays 302 unless said. */
  redirectInit?: ResponseInit;
  toast?: EnhancedToast;
}

/**
 * The action's answer in the shape its caller reads: `data` (with `init`) for a post with `enhanced=1`,
 * else a redirect to `redirectTo` (with `redirectInit`), each with the toast when one is given.
 */
export async function answerEnhanced<D>(form: FormData, answer: EnhancedAnswer<D>) {
  const { toast } = answer;
  if (answersWithData(form)) {
    if (!toast?.withData) return data(answer.data, answer.init);
    const withToast = toast.type === "success" ? dataWithSuccess : dataWithError;
    return withToast(answer.data, toast.message, answer.init);
  }
  if (!toast) return redirect(answer.redirectTo, answer.redirectInit);
  const withToast = toast.type === "success" ? redirectWithSuccess : redirectWithError;
  return withToast(answer.redirectTo, toast.message, answer.redirectInit);
}
