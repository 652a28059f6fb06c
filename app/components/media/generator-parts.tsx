import { useEffect, useRef, useState } from "react";
import { ApiError, detailText } from "~/browser/api-client";
import type { IconName } from "~/common/icons";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import { Icon } from "~/components/ui/icon";

/**
 * The pieces every generator of the project editor is made of (./project-generators.tsx): a fold, a
 * prompt form, one run at a time with its outcome text, and the button that attaches a result.
 */

export type Outcome = { ok: boolean; text: string; detail?: string } | null;

/** What the project editor generates: each says its outcome in a sentence of its own (catalogue keys). */
export type GeneratorKind = "Script" | "Voice" | "Image" | "Video";
const GENERATED: Record<GeneratorKind, string> = {
  Script: msg("Script generated successfully!"),
  Voice: msg("Voice generated successfully!"),
  Image: msg("Image generated successfully!"),
  Video: msg("Video generated successfully!"),
};
const NOT_GENERATED: Record<GeneratorKind, string> = {
  Script: msg("Failed to generate Script"),
  Voice: msg("Failed to generate Voice"),
  Image: msg("Failed to generate Image"),
  Video: msg("Failed to generate Video"),
};

/** One generator run at a time: busy flag, result and the outcome texts in docs/screens.md#error-messages. */
export function useGenerator<T>(kind: GeneratorKind) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<T | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const run = async (input: string, task: (input: string) => Promise<T>) => {
    const trimmed = input.trim();
    if (!trimmed || busy) return; // docs/screens.md#validation-rules: each generator ignores empty input.
    setBusy(true);
    setOutcome(null);
    try {
      const value = await task(trimmed);
      if (!alive.current) return;
      setResult(value);
      setOutcome({ ok: true, text: GENERATED[kind] });
    } catch (error) {
      if (!alive.current) return;
      const detail = error instanceof ApiError && error.status !== 401 ? error.detail : undefined;
      setOutcome({ ok: false, text: NOT_GENERATED[kind], detail });
    } finally {
      if (alive.current) setBusy(false);
    }
  };
  return { busy, result, outcome, run, alive };
}

export function GeneratorOutcome({ outcome }: { outcome: Outcome }) {
  const { t } = useT();
  if (!outcome) return null;
  return (
    <p className={`message ${outcome.ok ? "message-success" : "message-error"}`} role={outcome.ok ? "status" : "alert"}>
      {t(outcome.text)}
      {outcome.detail ? <span className="message-detail">{detailText(t, outcome.detail)}</span> : null}
    </p>
  );
}

export function Generator({
  title,
  icon,
  testId,
  children,
}: {
  title: string;
  icon: IconName;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <details className="card generator" data-testid={testId}>
      <summary>
        <Icon name={icon} />
        {title}
      </summary>
      <div className="generator-body">{children}</div>
    </details>
  );
}

export function PromptForm({
  label,
  value,
  onChange,
  busy,
  action,
  busyLabel,
  rows = 3,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
  action: { label: string; run: () => void };
  busyLabel: string;
  rows?: number;
}) {
  return (
    <form
      className="form generator-form"
      onSubmit={(event) => {
        event.preventDefault();
        action.run();
      }}
    >
      <label>
        {label}
        <textarea rows={rows} value={value} onChange={(event) => onChange(event.target.value)} maxLength={2000} />
      </label>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? busyLabel : action.label}
      </button>
    </form>
  );
}

/** What a generator's result is attached as: each button says it in a sentence of its own (catalogue keys). */
const ATTACH_LABELS = {
  voice: msg("Attach voice to project"),
  image: msg("Attach image to project"),
  video: msg("Attach video to project"),
} as const;

export function AttachButton({ label, onClick }: { label: keyof typeof ATTACH_LABELS; onClick: () => void }) {
  const { t } = useT();
  return (
    <button type="button" className="button" onClick={onClick}>
      <Icon name="paperclip" />
      {t(ATTACH_LABELS[label])}
    </button>
  );
}
