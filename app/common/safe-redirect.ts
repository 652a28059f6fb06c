/**
 * Shared by the server (redirects after login and forms) and screens (links built from a query string).
 * Only same-site relative paths are followed after login (no open redirects). Browsers drop tabs and
 * newlines from URLs and read "\" as "/", so "/\t/evil.example" would become "//evil.example": any
 * control character or backslash is refused outright, and what is left must resolve to this origin.
 * Characters outside ASCII (e.g. "/日本") are percent-encoded as UTF-8, as a browser would request
 * them: the answer's Location header must be ASCII, and the encoded path leads to the same page.
 */
export function safeRedirectPath(
  target: FormDataEntryValue | string | null | undefined,
  fallback = "/dashboard",
): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  let encoded: string;
  try {
    // encodeURI throws on a lone surrogate, which names no page: refused.
    encoded = target.replace(/[^\u0020-\u007e]+/g, (run) => encodeURI(run));
  } catch {
    return fallback;
  }
  const base = "http://same-origin.invalid";
  try {
    const resolved = new URL(encoded, base);
    if (resolved.origin !== base || !resolved.pathname.startsWith("/") || resolved.pathname.startsWith("//"))
      return fallback;
  } catch {
    return fallback;
  }
  return encoded;
}
