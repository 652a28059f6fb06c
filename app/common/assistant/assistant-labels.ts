import { msg } from "~/common/i18n/translate";

/** The offline assistant's provider id: answers carrying it are labelled as the offline assistant's (screens and API). */
export const OFFLINE_ASSISTANT_ID = "offline-assistant";

/** The title of a conversation made without one, until its first question names it (the screens show it translated). */
export const UNTITLED_CONVERSATION = msg("New conversation");

/** A conversation that is not the person's, or not there (the API's 404 detail; the screen shows it translated). */
export const CONVERSATION_NOT_FOUND = msg("Conversation not found");
