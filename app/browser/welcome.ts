/**
 * the welcome toast in docs/screens.md#screens-and-routes shows once per sign-in, not on every visit to the dashboard: the
 * browser remembers whom it welcomed until it sees nobody signed in (a logout, an ended session),
 * which is how every new sign-in starts. Kept in localStorage: other tabs of the same sign-in count.
 */
const WELCOMED_KEY = "studio.welcomed";

/** True the first time it is asked for this person since the browser last saw nobody signed in. */
export function firstWelcomeOfSignIn(email: string): boolean {
  try {
    if (localStorage.getItem(WELCOMED_KEY) === email) return false;
    localStorage.setItem(WELCOMED_KEY, email);
  } catch {
    // Storage refused (private mode, quota): welcoming again beats never welcoming.
  }
  return true;
}

/** Nobody is signed in: the next sign-in is welcomed again. */
export function forgetWelcome(): void {
  try {
    localStorage.removeItem(WELCOMED_KEY);
  } catch {
    // Nothing was kept.
  }
}
