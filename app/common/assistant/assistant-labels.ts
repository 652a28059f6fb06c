/** The offline assistant's provider id: answers carrying it are labelled as the offline assistant's (screens and API). */
export const OFFLINE_ASSISTANT_ID = "offline-assistant";
