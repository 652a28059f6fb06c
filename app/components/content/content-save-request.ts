import { apiFetch, errorDetail } from "~/browser/api-client";
import { CONFLICT_TEXT, type EditableItem } from "./content-texts";

/** Browsers refuse keepalive requests with bodies over 64 KiB. */
const KEEPALIVE_MAX_BYTES = 60_000;

/** auto: the 3 s autosave; manual: Save; force: "Save my version anyway"; leave: the page is being left. */
export type SaveKind = "auto" | "manual" | "force" | "leave";

type SaveReply =
  { ok: true; item: EditableItem } | { ok: false; status: number; detail: string; current: EditableItem | null };

function isItem(value: unknown): value is EditableItem {
  const item = value as Partial<EditableItem> | null;
  return (
    !!item &&
    typeof item.id === "string" &&
    typeof item.title === "string" &&
    typeof item.body === "string" &&
    typeof item.updated_at === "string"
  );
}

/**
 * One save through the API client: Save and "Save my version anyway" are PUT /api/content/{id}, the
 * autosave and the save on the way out POST .../autosave. A 409 carries the stored version
 * (`{"detail", "current"}`), which the editor keeps instead of asking for it again.
 */
export async function sendSave(id: string, kind: SaveKind, payload: Record<string, unknown>): Promise<SaveReply> {
  const body = JSON.stringify(payload);
  const manual = kind === "manual" || kind === "force";
  const response = await apiFetch(`/api/content/${encodeURIComponent(id)}${manual ? "" : "/autosave"}`, {
    method: manual ? "PUT" : "POST",
    headers: { "Content-Type": "application/json" },
    body,
    // A save started while the page is being left must outlive the page (the limit is in bytes, not characters).
    keepalive: kind === "leave" && new TextEncoder().encode(body).length < KEEPALIVE_MAX_BYTES,
  });
  if (response.ok) return { ok: true, item: (await response.json()) as EditableItem };
  if (response.status !== 409)
    return { ok: false, status: response.status, detail: await errorDetail(response), current: null };
  const answer = (await response.json().catch(() => null)) as { detail?: unknown; current?: unknown } | null;
  return {
    ok: false,
    status: 409,
    detail: typeof answer?.detail === "string" ? answer.detail : CONFLICT_TEXT,
    current: isItem(answer?.current) ? answer.current : null,
  };
}
