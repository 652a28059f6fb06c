import { forwardRef, useState } from "react";
import { Icon } from "./icon";

/**
 * The file picker: a drop zone with the native <input type="file"> inside, so choosing (and the
 * form's plain submission) works without JavaScript; with it a file dropped anywhere on the zone is
 * put into that input (as if chosen) and its name is shown. Never wider than its card.
 */
export const DropZone = forwardRef<
  HTMLInputElement,
  { label: string; name: string; accept?: string; required?: boolean; hint?: string; id?: string }
>(function DropZone({ label, name, accept, required, hint, id }, ref) {
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const inputId = id ?? `drop-zone-${name}`;

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
        onChange={(event) => setChosen(event.currentTarget.files?.[0]?.name ?? null)}
      />
      {chosen ? (
        <p className="drop-zone-file" aria-live="polite">
          Chosen: <strong>{chosen}</strong>
        </p>
      ) : null}
    </div>
  );
});
