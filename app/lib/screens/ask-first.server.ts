import { redirect } from "react-router";
import { answersWithData } from "./enhanced-answer.server";

/**
 * A screen's delete asks first (docs/screens.md#dialogs). With JavaScript the app's dialog has asked
 * and the post says `confirmed=1` (a fetcher's `enhanced` post has asked too); a plain form without it
 * is sent back to its screen with `?{param}={value}`, where a confirmation panel asks.
 */
export function askFirst(form: FormData, screen: string, param: string, value: string): Response | null {
  if (form.get("confirmed") === "1" || answersWithData(form)) return null;
  const [path, query = ""] = screen.split("?");
  const params = new URLSearchParams(query);
  params.set(param, value);
  return redirect(`${path}?${params}`);
}
