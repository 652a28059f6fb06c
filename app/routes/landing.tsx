import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { ThemeToggle, useTheme } from "~/components/shell/theme-toggle";
import { LanguageMenu } from "~/components/shell/language-menu";
import { useT } from "~/components/ui/i18n";
import { currentUser } from "~/auth/auth.server";
import {
  LAUNCHED_TEXT,
  launchHappened,
  launchProgressLabel,
  launchProgressPercent,
  newYorkTime,
} from "~/common/launch";
import type { Route } from "./+types/landing";

/** The server's clock seeds the first render so the page hydrates without a mismatch; a signed-in person gets a way back to the dashboard. */
export function loader({ context }: Route.LoaderArgs) {
  return { now: Date.now(), signedIn: currentUser(context) !== null };
}

const AMBIENT_VOLUME = 0.5;

function useTicker(start: number) {
  const [now, setNow] = useState(start);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export default function Landing({ loaderData }: Route.ComponentProps) {
  const { t, language } = useT();
  const now = useTicker(loaderData.now);
  const theme = useTheme();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  const [soundOn, setSoundOn] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // The matrix rain / starfield is not part of the first load: fetched once the page is idle.
    let stop: (() => void) | undefined;
    let cancelled = false;
    const start = () =>
      void import("~/browser/landing/backgrounds").then(({ startBackground }) => {
        if (!cancelled) stop = startBackground(canvas, theme === "dark" ? "matrix" : "starfield");
      });
    const idle = "requestIdleCallback" in window ? requestIdleCallback(start, { timeout: 300 }) : undefined;
    const timer = idle === undefined ? setTimeout(start, 0) : undefined;
    return () => {
      cancelled = true;
      if (idle !== undefined) cancelIdleCallback(idle);
      clearTimeout(timer);
      stop?.();
    };
  }, [theme]);

  const toggleSound = async () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (soundOn) {
      audio.pause();
      setSoundOn(false);
      return;
    }
    audio.volume = AMBIENT_VOLUME;
    try {
      await audio.play();
      setSoundOn(true);
    } catch {
      setSoundOn(false);
    }
  };

  const percent = launchProgressPercent(now);
  return (
    <div className={`landing landing-${theme}`}>
      <title>Creative AI Studio</title>
      <meta
        name="description"
        content={t("Write, draw, speak, film and generate: your self-hosted creative AI workspace.")}
      />
      {/* One canvas per mode: a canvas handed to the drawing worker cannot be drawn on again. */}
      <canvas
        key={theme}
        ref={canvasRef}
        className="landing-canvas"
        data-mode={theme === "dark" ? "matrix" : "starfield"}
        aria-hidden="true"
      />
      <main className="landing-content">
        <h1 className={theme === "dark" ? "glitch" : "landing-title"} data-text="Creative AI Studio">
          Creative AI Studio
        </h1>
        <p className="landing-tagline">{t("Write, draw, speak, film and generate — all in one studio.")}</p>
        <p className="landing-clock" aria-label={t("New York time")}>
          <span className="muted">{t("New York")}</span> <time data-testid="clock">{newYorkTime(now, language)}</time>
        </p>
        <div className="launch">
          <div
            className="launch-bar"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Number(percent.toFixed(1))}
            aria-label={t("100-Day Launch progress")}
          >
            <div className="launch-fill" style={{ width: `${percent}%` }} />
          </div>
          <p data-testid="launch-progress">{launchProgressLabel(now, t, language)}</p>
          {launchHappened(now) ? (
            <p className="launch-done" data-testid="launch-done">
              {t(LAUNCHED_TEXT)}
            </p>
          ) : null}
        </div>
        <nav className="landing-actions" aria-label={t("Get started")}>
          {/* Signed in: the way in and the way out instead of Register and Login (docs/screens.md "Shell and toasts"). */}
          {loaderData.signedIn ? (
            <>
              <Link className="button button-primary" to="/dashboard">
                {t("Open dashboard")}
              </Link>
              <Form method="post" action="/logout" className="inline-form" discover="none">
                <button type="submit" className="button">
                  {t("Logout")}
                </button>
              </Form>
            </>
          ) : (
            <>
              <Link className="button button-primary" to="/register">
                {t("Register")}
              </Link>
              <Link className="button" to="/login">
                {t("Login")}
              </Link>
            </>
          )}
          <Link className="button button-ghost" to="/feedback">
            {t("Give Feedback")}
          </Link>
        </nav>
        <div className="landing-toggles">
          <button type="button" className="button button-ghost" aria-pressed={soundOn} onClick={toggleSound}>
            {soundOn ? t("Sound: on") : t("Sound: off")}
          </button>
          <ThemeToggle />
          <LanguageMenu />
        </div>
        <audio ref={audioRef} src="/static/ambient.wav" loop preload="none" data-testid="ambient" />
      </main>
    </div>
  );
}
