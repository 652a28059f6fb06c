import { interpolate, msg, type Translator } from "~/common/i18n/translate";

/**
 * The question every delete asks, with the item's name in it (docs/screens.md#dialogs): the app's
 * dialog with JavaScript, the confirmation panel without it. Content keeps its own words
 * ("Delete this content?", components/dashboard/dashboard-list.tsx) with the title under them.
 * Each is a key of the catalogue with its value: a screen shows `t(QUESTION, { name })`.
 */
export const DELETE_QUESTION = msg("Delete “{{name}}”?");
/** The account's tokens and sessions are revoked and signed out rather than deleted: the same shape. */
export const REVOKE_QUESTION = msg("Revoke “{{name}}”?");
export const SIGN_OUT_QUESTION = msg("Sign out “{{name}}”?");
export const REVOKE_SHARE_QUESTION = msg("Revoke the link to “{{title}}”?");

type Translate = Translator["t"];
const english: Translate = interpolate;

/** The question in the screen's language (`t` from useT or screenTranslator); in English without one. */
export const deleteQuestion = (name: string, t: Translate = english) => t(DELETE_QUESTION, { name });
export const revokeQuestion = (name: string, t: Translate = english) => t(REVOKE_QUESTION, { name });
export const signOutQuestion = (name: string, t: Translate = english) => t(SIGN_OUT_QUESTION, { name });
export const revokeShareQuestion = (title: string, t: Translate = english) => t(REVOKE_SHARE_QUESTION, { title });
