/**
 * HTTP Range requests (RFC 9110 §14) for a file of `size` bytes. One range is served (206); a
 * request for several ranges gets the whole file (200), which the RFC allows and every media player
 * handles. A range that cannot be satisfied, or a `bytes=` header that does not parse, is 416.
 */
export type RangeAnswer =
  { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

const SPEC = /^(\d*)-(\d*)$/;

export function parseRange(header: string | null, size: number): RangeAnswer {
  if (header === null) return { kind: "full" };
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  // Another unit (or none): the header is ignored, as the RFC says.
  if (!match) return { kind: "full" };
  const specs = match[1].split(",").map((spec) => spec.trim());
  if (specs.length > 1) {
    return specs.every((spec) => SPEC.test(spec) && spec !== "-") ? { kind: "full" } : { kind: "unsatisfiable" };
  }
  const parts = SPEC.exec(specs[0]);
  if (!parts || (parts[1] === "" && parts[2] === "")) return { kind: "unsatisfiable" };
  const [first, last] = [parts[1], parts[2]];
  // Digits beyond what a safe integer holds are still "past the end" (or a huge suffix).
  const toNumber = (digits: string) => Math.min(Number(digits), Number.MAX_SAFE_INTEGER);

  if (first === "") {
    // bytes=-N: the last N bytes.
    const suffix = toNumber(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = toNumber(first);
  if (start >= size) return { kind: "unsatisfiable" };
  if (last === "") return { kind: "partial", start, end: size - 1 };
  const end = toNumber(last);
  if (end < start) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end: Math.min(end, size - 1) };
}
