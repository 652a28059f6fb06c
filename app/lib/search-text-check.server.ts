import type Database from "better-sqlite3";

/**
 * A search's check of one row in JavaScript, for SQLite (docs/decisions/0077-search-from-the-match.md,
 * "The walk's check"): does the row's title or body hold, for every word of the search, one of the
 * word's index words (or, for a word kept as a prefix, a word starting with it)? It answers exactly as
 * FTS5's check by rowid would, without touching the full-text index (whose check costs a seek per
 * segment, and every save adds a segment until the hourly merge), but only for text FTS5's tokenizer
 * splits as this does: unicode61 on ASCII makes words of runs of [0-9A-Za-z], folded to lower case,
 * and cuts a word at FTS5_MAX_TOKEN_SIZE bytes. For any other text it answers null (not known), and
 * the caller asks FTS5.
 */

/** FTS5 keeps at most this many bytes of a word (longer ones are cut, in the index and in queries). */
export const FTS5_MAX_TOKEN_SIZE = 32768;

/** One word of a search: its index words (exact), or the folded word itself when kept as a prefix. */
export type CheckPart = { terms: string[] } | { prefix: string };

const WORD = /^[0-9a-z]+$/;

/**
 * The check's text for the parts (all must match), or null when it cannot answer as FTS5 would: a
 * prefix that is not an ASCII word, or an index word as long as FTS5's limit (a longer word was cut
 * to it). Index words holding anything but [0-9a-z] are left out: no ASCII text has them.
 */
export function textCheckSpec(parts: CheckPart[]): string | null {
  const spec: (string[] | string)[] = [];
  for (const part of parts) {
    if ("prefix" in part) {
      if (!WORD.test(part.prefix)) return null;
      spec.push(part.prefix);
    } else {
      if (part.terms.some((term) => term.length >= FTS5_MAX_TOKEN_SIZE)) return null;
      spec.push(part.terms.filter((term) => WORD.test(term)));
    }
  }
  return JSON.stringify(spec);
}

// ASCII without NUL: what unicode61 splits as described above.
const ASCII = /^[\x01-\x7f]*$/;
const NOT_WORD_BEFORE = "(?<![0-9A-Za-z])";
const NOT_WORD_AFTER = "(?![0-9A-Za-z])";

/** A spec's patterns, one per part. Case-insensitive matching of ASCII text folds just A-Z, as unicode61 does. */
function patterns(spec: string): RegExp[] {
  const parts = JSON.parse(spec) as (string[] | string)[];
  return parts.map((part) =>
    typeof part === "string"
      ? new RegExp(NOT_WORD_BEFORE + part, "i")
      : part.length === 0
        ? /(?!)/
        : new RegExp(`${NOT_WORD_BEFORE}(?:${part.join("|")})${NOT_WORD_AFTER}`, "i"),
  );
}

const compiled = new Map<string, RegExp[]>();
const COMPILED_MAX = 200;

/** 1 (matches), 0 (does not), or null (text this check cannot read as FTS5 does; or no spec). */
export function checkText(title: string | null, body: string | null, spec: string | null): 0 | 1 | null {
  if (spec === null) return null;
  const t = title ?? "";
  const b = body ?? "";
  if (!ASCII.test(t) || !ASCII.test(b)) return null;
  let parts = compiled.get(spec);
  if (!parts) {
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    parts = patterns(spec);
    compiled.set(spec, parts);
  }
  for (const part of parts) if (!part.test(t) && !part.test(b)) return 0;
  return 1;
}

/** The SQL function `search_text_check(title, body, spec)` on a SQLite connection (openSqlite). */
export function registerSearchTextCheck(sqlite: Database.Database): void {
  sqlite.function("search_text_check", { deterministic: true, directOnly: true }, (title, body, spec) =>
    checkText(title as string | null, body as string | null, spec as string | null),
  );
}
