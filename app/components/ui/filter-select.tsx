import { useId } from "react";
import { FILTER_LABELS, type CameraFilter } from "~/browser/camera/camera-filters";
import { useT } from "~/components/ui/i18n";

interface FilterSelectProps<F extends CameraFilter> {
  filters: readonly F[];
  value: F;
  onChange: (filter: F) => void;
}

/** The filter dropdown of both camera screens; the choice applies to the live preview at once. */
export function FilterSelect<F extends CameraFilter>({ filters, value, onChange }: FilterSelectProps<F>) {
  const { t } = useT();
  const id = useId();
  return (
    <div className="capture-field">
      <label htmlFor={id}>{t("Filter")}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as F)}>
        {filters.map((filter) => (
          <option key={filter} value={filter}>
            {t(FILTER_LABELS[filter])}
          </option>
        ))}
      </select>
    </div>
  );
}
