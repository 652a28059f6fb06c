// A Markdown table on stdout, numbers right-aligned: how the benchmarks print what they measured.

/** Prints `title`, then the table of `columns` and `rows` (cells as strings), the first column left-aligned. */
export function table(title, columns, rows) {
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    "| " +
    cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join(" | ") +
    " |";
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(line(columns) + "\n");
  process.stdout.write(
    "|" +
      widths.map((width, i) => (i === 0 ? "-".repeat(width + 1) + "-" : "-".repeat(width + 1) + ":")).join("|") +
      "|\n",
  );
  for (const row of rows) process.stdout.write(line(row) + "\n");
}
