// Which of our two encodings a request's Accept-Encoding allows, best first: shared by the front door's
// client files (scripts/static-files.mjs) and its on-the-fly compression (scripts/fetch-bridge.mjs).
const OURS = ["br", "gzip"];

/**
 * ["br", "gzip"], ["gzip"], ... or []: the encodings with a weight above 0 (an explicit `q=0` refuses
 * one even when `*` is accepted), higher weight first, brotli first on a tie.
 */
export function acceptedEncodings(header) {
  if (!header) return [];
  const weights = new Map();
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((param) => /^\s*q=([\d.]+)/.exec(param)).find(Boolean);
    weights.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const weightOf = (encoding) => weights.get(encoding) ?? weights.get("*") ?? 0;
  return OURS.filter((encoding) => weightOf(encoding) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}
