import { expect, it, vi } from "vitest";
import { createContent } from "~/models/content/content.server";
import { exportAccount } from "~/services/accounts/account-export.server";
import { newUserId } from "../support/user-rows";

// The account export reads through a connection of its own (openBulkReader, docs/decisions/0078,
// fifth follow-up), which must be closed when the zip is done and when its reader goes away.
const readers = vi.hoisted(() => ({ opened: 0, closed: 0 }));
vi.mock("~/lib/db/db.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/lib/db/db.server")>();
  return {
    ...actual,
    openBulkReader: () => {
      const reader = actual.openBulkReader();
      readers.opened++;
      return { db: reader.db, close: () => (readers.closed++, reader.close()) };
    },
  };
});

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

it("closes the export's own connection when the zip has been read, and when it is abandoned", async () => {
  const userId = await newUserId();
  for (let i = 0; i < 3; i++) await createContent(userId, { title: `Piece ${i}`, body: "text ".repeat(50) });

  const whole = await exportAccount({ id: userId, email: "reader@example.com" });
  let bytes = 0;
  for await (const chunk of whole.zip.output) bytes += (chunk as Buffer).length;
  await settled();
  expect(bytes).toBeGreaterThan(0);
  expect(readers).toEqual({ opened: 1, closed: 1 });

  const abandoned = await exportAccount({ id: userId, email: "reader@example.com" });
  abandoned.zip.output.destroy();
  await settled();
  expect(readers).toEqual({ opened: 2, closed: 2 });
});
