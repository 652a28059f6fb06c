import { forwardRef, useEffect, useRef, useState } from "react";
import { Icon } from "./icon";
import { useT } from "~/components/ui/i18n";

/**
 * The file picker: a drop zone with the native <input type="file"> inside, so choosing (and the
 * form's plain submission) works without JavaScript; with it a file dropped anywhere on the zone is
 * put into that input (as if chosen) and its name is shown. Never wider than its card. When its form
 * is reset (after a successful upload) the input is emptied and the name goes with it. `error` is the
 * field's own message, shown right under the input and tied to it (aria-describedby, aria-invalid).
 */
export const DropZone = forwardRef<
  HTMLInputElement,
  {
    label: string;
    name: string;
    accept?: string;
    required?: boolean;
    hint?: string;
    id?: string;
    error?: React.ReactNode;
    onChoose?: () => void;
  }
>(function DropZone({ label, name, accept, required, hint, id, error, onChoose }, ref) {
  const { t } = useT();
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const inputId = id ?? `drop-zone-${name}`;
  const errorId = `${inputId}-error`;
  const zone = useRef<HTMLDivElement>(null);

  // A reset form (the upload went through) empties the input: "Chosen: …" goes too.
  useEffect(() => {
    const form = zone.current?.closest("form");
    if (!form) return;
    const cleared = () => setChosen(null);
    form.addEventListener("reset", cleared);
    return () => form.removeEventListener("reset", cleared);
  }, []);

  const onDragOver = (event: React.DragEvent<HTMLDivElement>) => {
    if (![...event.dataTransfer.types].includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setActive(true);
  };
  const onDragLeave = (event: React.DragEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setActive(false);
  };
  const onDrop = (event: React.DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setActive(false);
    const input = event.currentTarget.querySelector<HTMLInputElement>('input[type="file"]');
    const files = event.dataTransfer.files;
    if (!input || files.length === 0) return;
    // One file, as the native input takes it (no `multiple`).
    const transfer = new DataTransfer();
    transfer.items.add(files[0]);
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  };

  return (
    <div
      ref={zone}
      className={active ? "drop-zone drop-zone-active" : "drop-zone"}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      data-testid="drop-zone"
    >
      <Icon name="cloud-upload" />
      <label className="drop-zone-label" htmlFor={inputId}>
        {label}
      </label>
      {hint ? <span className="muted drop-zone-hint">{hint}</span> : null}
      <input
        ref={ref}
        id={inputId}
        type="file"
        name={name}
        accept={accept}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          setChosen(event.currentTarget.files?.[0]?.name ?? null);
          onChoose?.();
        }}
      />
      {chosen ? (
        <p className="drop-zone-file" aria-live="polite">
          {t("Chosen:")} <strong>{chosen}</strong>
        </p>
      ) : null}
      {error ? (
        <p className="field-error drop-zone-error" id={errorId} role="alert" data-testid="upload-error">
          {error}
        </p>
      ) : null}
    </div>
  );
});
