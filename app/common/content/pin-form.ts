// The dashboard row's buttons, as the list (optimistic order) and the content action both read them.

/** What the dashboard row's buttons are named: each posts its own name with an empty value. */
export const ROW_INTENTS = ["pin", "unpin", "delete"] as const;

/**
 * What a form posted to /content/{id} asks for: its `intent` field, or else the name of the dashboard
 * row's pressed button (`pin=`, `unpin=`, `delete=`). A row's buttons say it by name alone so that a
 * page of 100 rows does not repeat `name="intent" value="…"` 200 times (docs/performance.md: 40 KB of HTML).
 */
export function formIntent(form: FormData): string | null {
  const intent = form.get("intent");
  if (typeof intent === "string") return intent;
  return ROW_INTENTS.find((name) => form.has(name)) ?? null;
}

/**
 * What a pin form asks for: the list's star posts `pin` or `unpin` (by name or as `intent`);
 * `intent=pin` with `pinned=true|false` is the older, explicit form (still accepted by the action).
 * Null: not a pin.
 */
export function pinnedBy(form: FormData): boolean | null {
  const intent = formIntent(form);
  if (intent === "unpin") return false;
  if (intent !== "pin") return null;
  const pinned = form.get("pinned");
  return pinned === null ? true : pinned === "true";
}
