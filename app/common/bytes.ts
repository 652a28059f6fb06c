/**
 * The one byte formatter: binary units, as the limits are stated ("up to 25 MiB"), for file lists,
 * the storage meter, limits, refusals and the admin command alike, in IEC symbols (B, KiB, MiB, GiB).
 * Whole values print without a decimal ("25 MiB"), others with one ("1.5 MiB").
 */
const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"] as const;

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${UNITS[unit]}`;
}
