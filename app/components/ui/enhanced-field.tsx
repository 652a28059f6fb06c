import { useHydrated } from "./use-hydrated";

/**
 * Marks a form post as coming from the hydrated app: the action then answers with data for the
 * page to act on (the timed redirects in docs/screens.md#error-messages, alerts) instead of the plain-HTML redirect.
 * The browser's half of the `enhanced=1` protocol; the server's is ~/lib/screens/enhanced-answer.server.ts.
 */
export function EnhancedField() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name="enhanced" value="1" /> : null;
}
