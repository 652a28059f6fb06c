import type { SelectQueryBuilder } from "kysely";
import { z } from "zod";
import type { Database } from "~/lib/db/db-schema";
import { decodeCursor, encodeCursor } from "~/lib/http/cursor.server";
import type { LibrarySort } from "~/common/media/library-rules";
import type { MediaFile } from "./media.server";

/**
 * The library's keyset (docs/decisions/0076-paging-by-cursor.md): each sort ends in the id, so a
 * file's (size,) created_at and id say where it stands, and "the files after it" is a range of the
 * index of migration 0023 ((user_id, created_at, id) or (user_id, size, created_at, id)). A cursor
 * names its sort: one of "-date" given to "size" is refused (400), not misread.
 */
export interface LibraryKey {
  size: number;
  createdAt: string;
  id: string;
}

const listOf = (sort: LibrarySort) => `library${sort}`;
const bySize = (sort: LibrarySort) => sort.endsWith("size");

const dateKey = z
  .tuple([z.string().min(1).max(64), z.string().min(1).max(200)])
  .transform(([createdAt, id]): LibraryKey => ({ size: 0, createdAt, id }));
const sizeKey = z
  .tuple([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(64), z.string().min(1).max(200)])
  .transform(([size, createdAt, id]): LibraryKey => ({ size, createdAt, id }));

/** The cursor that starts a page right after `file`, in `sort`'s order. */
export function libraryCursor(sort: LibrarySort, file: MediaFile): string {
  const keys = bySize(sort) ? [file.size, file.createdAt, file.id] : [file.createdAt, file.id];
  return encodeCursor(listOf(sort), keys);
}

/** The key a cursor of `sort` names; anything else is a 400 {detail}. */
export function libraryCursorKey(sort: LibrarySort, cursor: string): LibraryKey {
  return decodeCursor(listOf(sort), cursor, bySize(sort) ? sizeKey : dateKey);
}

/** A screen's cursor (?cursor= of a Next link): its key, or undefined when there is none or it does not read (the page then goes by its number). */
export function screenCursorKey(sort: LibrarySort, cursor: string | null): LibraryKey | undefined {
  if (!cursor) return undefined;
  try {
    return libraryCursorKey(sort, cursor);
  } catch {
    return undefined;
  }
}

type Files<O> = SelectQueryBuilder<Database, "media_files", O>;

/**
 * `sort`'s order: -date newest first, date oldest first, -size largest first, size smallest first;
 * files of one size (or one time) newest first, then by id, so every file has one place.
 */
export function orderLibrary<O>(select: Files<O>, sort: LibrarySort): Files<O> {
  if (sort === "date") return select.orderBy("created_at", "asc").orderBy("id", "asc");
  if (sort === "-date") return select.orderBy("created_at", "desc").orderBy("id", "desc");
  return select
    .orderBy("size", sort === "size" ? "asc" : "desc")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
}

/** Only the files after `key` in `sort`'s order. */
export function afterLibraryKey<O>(select: Files<O>, sort: LibrarySort, key: LibraryKey): Files<O> {
  switch (sort) {
    case "-date":
      return select.where(({ eb, refTuple, tuple }) =>
        eb(refTuple("created_at", "id"), "<", tuple(key.createdAt, key.id)),
      );
    case "date":
      return select.where(({ eb, refTuple, tuple }) =>
        eb(refTuple("created_at", "id"), ">", tuple(key.createdAt, key.id)),
      );
    case "-size":
      return select.where(({ eb, refTuple, tuple }) =>
        eb(refTuple("size", "created_at", "id"), "<", tuple(key.size, key.createdAt, key.id)),
      );
    case "size":
      // Size ascending, then newest first: a range on size, and within the cursor's size the rows after it.
      return select
        .where("size", ">=", key.size)
        .where(({ eb, or, refTuple, tuple }) =>
          or([eb("size", ">", key.size), eb(refTuple("created_at", "id"), "<", tuple(key.createdAt, key.id))]),
        );
  }
}
