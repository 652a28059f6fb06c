// The dashboard's pin star, as the list (optimistic order) and the content action both read it.

/**
 * What a pin form asks for: the list's star posts `intent=pin` or `intent=unpin`; `intent=pin` with
 * `pinned=true|false` is the older, explicit form (still accepted by the action). Null: not a pin.
 */
export function pinnedBy(form: FormData): boolean | null {
  const intent = form.get("intent");
  if (intent === "unpin") return false;
  if (intent !== "pin") return null;
  const pinned = form.get("pinned");
  return pinned === null ? true : pinned === "true";
}
