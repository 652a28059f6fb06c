import { useEffect, useRef } from "react";
import { useBlocker, type Location } from "react-router";
import { leavingForLogin } from "~/browser/api-client";
import { confirmInApp } from "~/browser/app-dialogs";
import { useT } from "~/components/ui/i18n";
import type { Translator } from "~/common/i18n/translate";
import { LEAVE_UNSAVED } from "./content-texts";
import type { SaveKind } from "./content-save-request";
import type { SaveOutcome } from "./save-states";

/**
 * Leaving the editor with unsaved changes. The page (closing, reloading, hiding the tab): a save on the
 * way out, and the browser's own warning. In the app (another screen, the browser's Back): React
 * Router's blocker holds the navigation, a save runs, and if it fails the app asks "could not be saved,
 * leave anyway?" (docs/screens.md#content-view). Cancel is the explicit way to drop changes (it resets
 * the draft before it navigates). The decisions are the pure functions below; the hook wires them up.
 */

/** A blocker as the answer needs it (React Router's `Blocker` is one). */
export type LeaveBlocker =
  { state: "blocked"; proceed: () => void; reset: () => void } | { state: "unblocked" | "proceeding" };

/** How a try to leave ended: left, stayed (the question's Cancel), or moot (no longer blocked by then). */
export type LeaveAnswer = "left" | "stayed" | "moot";

/** Whether a navigation is held: unsaved changes, and a destination other than this editor (`?edit=1`). */
export function blocksLeaving(
  hasUnsaved: boolean,
  currentLocation: Pick<Location, "pathname">,
  nextLocation: Pick<Location, "pathname" | "search">,
): boolean {
  if (!hasUnsaved) return false;
  const staysInEditor =
    nextLocation.pathname === currentLocation.pathname && new URLSearchParams(nextLocation.search).get("edit") === "1";
  return !staysInEditor;
}

/** A save that stored the changes, or found none to store, lets the person go without a question. */
export const leavesWithoutAsking = (outcome: SaveOutcome) => outcome === "saved" || outcome === "clean";

/**
 * One try to leave: save, and if that fails ask. The answer goes to the latest try (`latest()`): a Back
 * made while it asked is the same question; a try no longer blocked by then is left alone.
 */
export async function answerLeave(
  save: () => Promise<SaveOutcome>,
  ask: () => Promise<boolean>,
  latest: () => LeaveBlocker,
): Promise<LeaveAnswer> {
  const outcome = await save();
  if (latest().state !== "blocked") return "moot";
  // The save failed: the app's own question, in the words of docs/screens.md#content-view.
  const leave = leavesWithoutAsking(outcome) || (await ask());
  const current = latest();
  if (current.state !== "blocked") return "moot";
  if (leave) current.proceed();
  else current.reset();
  return leave ? "left" : "stayed";
}

/**
 * Tries to leave, answered one at a time: `onTry` runs for every blocker state or blocked location
 * the screen renders, and starts an answer unless one is on its way (that one serves the newer try).
 * Keyed on the location too, since blocker states come in a transition: Cancel and a quick second Back
 * may render as one unchanged "blocked" with a new location, and that second try must be asked again.
 */
export function leaveAnswerer(ask: () => Promise<boolean>, latest: () => LeaveBlocker) {
  let answering = false;
  return {
    onTry(state: LeaveBlocker["state"], save: () => Promise<SaveOutcome>): Promise<LeaveAnswer> | null {
      if (state !== "blocked" || answering) return null;
      answering = true;
      return answerLeave(save, ask, latest).finally(() => {
        answering = false;
      });
    },
  };
}

const askToLeave = (t: Translator["t"]) =>
  confirmInApp({ message: t(LEAVE_UNSAVED), confirmLabel: t("Leave"), danger: true });

/** `hasUnsaved` and `save` are stable across renders and read the latest state. */
export function useLeaveGuard(hasUnsaved: () => boolean, save: (kind: SaveKind) => Promise<SaveOutcome>) {
  // The question is asked in the screen's language (the latest translator: the answerer is made once).
  const { t } = useT();
  const translate = useRef(t);
  translate.current = t;
  // Leaving the page with unsaved changes: save them and let the browser warn.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // On the way to /login (the session ended) the draft is kept in the tab and comes back: no prompt.
      if (!hasUnsaved() || leavingForLogin()) return;
      void save("leave");
      event.preventDefault();
    };
    const onHidden = () => {
      if (document.visibilityState === "hidden" && hasUnsaved()) void save("leave");
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, [hasUnsaved, save]);

  // Leaving edit mode in the app: save first; if that fails, ask.
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    blocksLeaving(hasUnsaved(), currentLocation, nextLocation),
  );
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;
  const answerer = useRef<ReturnType<typeof leaveAnswerer> | null>(null);
  answerer.current ??= leaveAnswerer(
    () => askToLeave(translate.current),
    () => blockerRef.current,
  );
  useEffect(() => {
    void answerer.current?.onTry(blocker.state, () => save("auto"));
  }, [blocker.state, blocker.location, save]);
}
