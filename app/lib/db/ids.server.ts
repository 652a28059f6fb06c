import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = () => randomUUID();
export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");
export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
export const nowIso = (date = new Date()) => date.toISOString();

let lastStamp = 0;
/**
 * An ISO-8601 timestamp that strictly increases within this process (and moves past `after` when
 * given), so two writes in the same millisecond still order newest first and a version always changes.
 */
export function monotonicIso(after?: string): string {
  let stamp = Math.max(Date.now(), lastStamp + 1);
  if (after) stamp = Math.max(stamp, Date.parse(after) + 1);
  lastStamp = stamp;
  return new Date(stamp).toISOString();
}
