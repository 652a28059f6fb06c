import type { LibraryFileJson, Provenance } from "~/common/media/library-rules";
import { useT } from "~/components/ui/i18n";

/**
 * A library card's title and its Details (./library-item.tsx; docs/screens.md, "Library: upload bar, filters, cards"):
 * the title is what the person knows the file by (a generated file's prompt, or the name they gave
 * it); the machine's names and ids wait under a <details> (it opens without JavaScript too).
 */

/** A title longer than this is clipped to two lines with "more" (about two lines of a phone's card). */
const TITLE_SHOWN_WHOLE = 60;

/**
 * The card's heading. A long one is clipped to two lines (library.css) with a "more" that shows it
 * whole and "less" that clips it again: a <details> with nothing but its summary, so it works
 * without JavaScript; the clip follows its open state (`:has()`).
 */
export function LibraryTitle({ title }: { title: string }) {
  const { t } = useT();
  if (title.length <= TITLE_SHOWN_WHOLE) return <h2 className="library-name">{title}</h2>;
  return (
    <div className="library-clip">
      <h2 className="library-name library-clip-text">{title}</h2>
      <details className="library-more">
        <summary>
          <span className="library-more-closed">{t("more")}</span>
          <span className="library-more-open">{t("less")}</span>
        </summary>
      </details>
    </div>
  );
}

function sourceText(source: Provenance["source"]): string | null {
  if (!source) return null;
  return `${source.type}${source.id ? ` ${source.id}` : ""}`;
}

/**
 * "Details": the file's own name, its id and, for what the AI tools make, how it was made (the prompt
 * too when the title is not it; "unknown" for files from before provenance was kept).
 */
export function FileDetails({ file, title, generated }: { file: LibraryFileJson; title: string; generated: boolean }) {
  const { t } = useT();
  const provenance = file.provenance;
  const rows: [string, string | null][] = [
    // The file's own name, when the title is not already it.
    [t("File"), title === file.name ? null : file.name],
    [t("Id"), file.id],
    [t("Type"), file.content_type],
  ];
  if (generated && !provenance) rows.push([t("Provenance"), t("unknown")]);
  if (provenance) {
    rows.push(
      [t("Prompt"), provenance.prompt && provenance.prompt.trim() !== title ? provenance.prompt : null],
      [t("Style"), provenance.style],
      [t("Voice"), provenance.voice],
      [t("Provider"), provenance.provider],
      [t("Model"), provenance.model],
      [t("Source"), sourceText(provenance.source)],
    );
  }
  return (
    <details className="library-details" data-testid="file-details">
      <summary>{t("Details")}</summary>
      <dl className="library-provenance" data-testid="provenance">
        {rows
          .filter((row): row is [string, string] => Boolean(row[1]))
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
    </details>
  );
}
