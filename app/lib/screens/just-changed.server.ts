import { z } from "zod";
import { oneTimeCookie } from "./one-time-cookie.server";

/**
 * The dashboard row a plain form has just made (Create) or pinned: the dashboard highlights it and
 * gives its title or star the focus, once (docs/screens.md#after-create-and-a-pin). Its address stays /dashboard.
 */
export const justChanged = oneTimeCookie(
  "just-changed",
  z.object({ id: z.string().min(1).max(200), part: z.enum(["title", "pin"]) }),
  60,
);
