import { listShares, type ShareJson } from "~/models/sharing/share.server";

/**
 * `npm run admin -- shares <email>`'s table (docs/decisions/0069): the person's live links with what an
 * operator needs to judge them; never the link itself (it opens the target for anyone).
 */

/** Rows as aligned columns under a header. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

const STATE_WORDS: Record<ShareJson["state"], string> = {
  active: "active",
  expired: "expired",
  used_up: "used up",
  gone: "target deleted",
};

const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "never");

/** The person's live links as a table and a count line ("no share links" when they have none). */
export async function sharesTable(userId: string, origin: string): Promise<string> {
  const shares = await listShares(userId, origin);
  if (shares.length === 0) return "No share links.";
  const rows = shares.map((share) => [
    share.id,
    share.kind,
    share.title.length > 40 ? `${share.title.slice(0, 39)}…` : share.title,
    `${share.views} / ${share.max_views ?? "no limit"}`,
    when(share.expires_at),
    STATE_WORDS[share.state],
  ]);
  const table = formatTable(["id", "kind", "title", "views / max", "expires (UTC)", "state"], rows);
  return `${table}\n${shares.length} share link${shares.length === 1 ? "" : "s"}`;
}
