import { ByteChunks } from "~/lib/storage/byte-chunks";

/**
 * A JSON document, indented by two spaces as `JSON.stringify(value, null, 2)` writes it, whose long
 * top-level lists are kept as bytes while they grow (the account export's manifest lists every piece:
 * docs/decisions/0078). `push` renders one item where the list will hold it; `render` gives the
 * whole document's bytes, exactly as JSON.stringify would have written it with those lists as arrays.
 */
export class JsonLists<K extends string> {
  readonly #lists = new Map<K, ByteChunks>();

  push(key: K, item: unknown): void {
    let list = this.#lists.get(key);
    if (!list) this.#lists.set(key, (list = new ByteChunks()));
    else list.append(",\n");
    // An item of a top-level list sits two levels deep: four spaces before each of its lines.
    list.append(`    ${JSON.stringify(item, null, 2).replaceAll("\n", "\n    ")}`);
  }

  /**
   * The document's bytes, ending in a newline. `document` names each list by its key where the list
   * goes (a list nothing was pushed to is `[]`); it must be an object.
   */
  render(document: Record<string, unknown>, keys: readonly K[]): Buffer[] {
    const marker = (key: K) => `\u0000list:${key}`;
    const text = `${JSON.stringify({ ...document, ...Object.fromEntries(keys.map((key) => [key, marker(key)])) }, null, 2)}\n`;
    const out: Buffer[] = [];
    let rest = text;
    for (const key of keys) {
      // A top-level key at two spaces: nothing inside a value can read so (its quotes and NUL are escaped).
      const at = `\n  ${JSON.stringify(key)}: ${JSON.stringify(marker(key))}`;
      const index = rest.indexOf(at);
      if (index < 0) throw new Error(`json-lists: no place for ${key}`);
      const start = index + at.length - JSON.stringify(marker(key)).length;
      out.push(Buffer.from(rest.slice(0, start)));
      const list = this.#lists.get(key);
      if (list && list.length > 0) out.push(Buffer.from("[\n"), ...list.chunks(), Buffer.from("\n  ]"));
      else out.push(Buffer.from("[]"));
      rest = rest.slice(index + at.length);
    }
    out.push(Buffer.from(rest));
    return out;
  }
}
