/**
 * Shared by the server (redirects after login and forms) and screens (links built from a query string).
 * Only same-site relative paths are followed after login (no open redirects). Browsers drop tabs and
 * newlines from URLs and read "\" as "/", so "/\t/evil.example" would become "//evil.example": any
 * control character or backslash is refused outright, and what is left must resolve to this origin.
 */
export function safeRedirectPath(target: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  const base = "http://same-origin.invalid";
  try {
    const resolved = new URL(target, base);
    if (resolved.origin !== base || !resolved.pathname.startsWith("/") || resolved.pathname.startsWith("//")) return fallback;
  } catch {
    return fallback;
  }
  return target;
}
