import { useHydrated } from "./use-hydrated";

/**
 * Marks a form post as coming from the hydrated app: the action then answers with data for the
 * page to act on (the timed redirects in docs/screens.md#error-messages, alerts) instead of the plain-HTML redirect.
 */
export function EnhancedField() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name="enhanced" value="1" /> : null;
}
