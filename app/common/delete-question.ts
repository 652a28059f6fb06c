/**
 * The question every delete asks, with the item's name in it (docs/screens.md#dialogs): the app's
 * dialog with JavaScript, the confirmation panel without it. Content keeps its own words
 * ("Delete this content?", components/dashboard/dashboard-list.tsx) with the title under them.
 */
export const deleteQuestion = (name: string) => `Delete “${name}”?`;

/** The account's tokens and sessions are revoked and signed out rather than deleted: the same shape. */
export const revokeQuestion = (name: string) => `Revoke “${name}”?`;
export const signOutQuestion = (name: string) => `Sign out “${name}”?`;
export const revokeShareQuestion = (title: string) => `Revoke the link to “${title}”?`;
