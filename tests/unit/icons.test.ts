import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ICON_NAMES, iconSetFingerprint } from "~/common/icon-names";
import { ICON_FALLBACK, ICON_SPRITE_URL, TOOL_ICONS } from "~/common/icons";
import { DASHBOARD_TOOLS } from "~/common/tools";

describe("the icon set (decision 0023)", () => {
  it("names the sprite by the set's fingerprint, so a changed set is a new URL", () => {
    expect(ICON_SPRITE_URL).toBe(`/icons.svg?v=${iconSetFingerprint()}`);
    expect(iconSetFingerprint([...ICON_NAMES, "another"])).not.toBe(iconSetFingerprint());
  });

  it("takes every icon from lucide-react, each once", () => {
    expect(new Set(ICON_NAMES).size).toBe(ICON_NAMES.length);
    for (const name of ICON_NAMES) {
      expect(fs.existsSync(path.resolve("node_modules/lucide-react/dist/esm/icons", `${name}.mjs`)), name).toBe(true);
    }
  });

  it("draws every tool's icon in the nav and the tool grid from the same sprite (app.css)", () => {
    const css = fs.readFileSync(path.resolve("app/styles/app.css"), "utf8");
    const paths = new Map<string, string>([
      ["dashboard", "/dashboard"],
      ...DASHBOARD_TOOLS.map((tool): [string, string] => [tool.id, tool.path]),
    ]);
    // Each rule as its selectors and its declarations (a selector list may span lines).
    const rules = css.split("}").map((chunk) => {
      const [selectorText = "", body = ""] = chunk.split("{");
      return { selectors: selectorText.split(",").map((selector) => selector.trim()), body };
    });
    for (const [id, toolPath] of paths) {
      const rule = rules.find((candidate) => candidate.selectors.includes(`.shell-nav [href="${toolPath}"]`));
      expect(rule, id).toBeDefined();
      expect(rule!.body, id).toContain(`url("${ICON_SPRITE_URL}#${TOOL_ICONS[id]}-view")`);
      // The tool grid's links by their href; in edit mode its tools (no links) by their id.
      if (id !== "dashboard") {
        expect(rule!.selectors, id).toContain(`.tool-grid [href="${toolPath}"]`);
        expect(rule!.selectors, id).toContain(`[data-tool-id="${id}"]`);
      }
    }
    for (const url of css.match(/\/icons\.svg\?v=\w+/g) ?? []) expect(url).toBe(ICON_SPRITE_URL);
  });

  it("gives every dashboard tool (and the dashboard) an icon of the set", () => {
    const names = new Set<string>(ICON_NAMES);
    expect(names.has(ICON_FALLBACK)).toBe(true);
    for (const tool of [{ id: "dashboard" }, ...DASHBOARD_TOOLS]) {
      expect(TOOL_ICONS[tool.id], tool.id).toBeDefined();
      expect(names.has(TOOL_ICONS[tool.id]), tool.id).toBe(true);
    }
  });
});
