import { SETTING_GROUPS } from "./catalogue";
import type { Variable } from "./define";

/**
 * docs/configuration.md and .env.example, rendered from the settings' declarations. Written by
 * `npm run docs:config` (tools/docs-config.mjs); tests/unit/settings-docs.test.ts fails when the files
 * on disk differ from what this renders.
 */
const GENERATED =
  "generated from app/lib/settings/ by `npm run docs:config`: edit the declarations there, not this file";

/** Variables other tools read: not the app's settings, listed apart. */
export const TOOL_VARIABLES: { name: string; default: string; description: string }[] = [
  {
    name: "CHROMIUM_PATH",
    default: "`/usr/bin/chromium`",
    description: "the browser for the Playwright tests and Lighthouse",
  },
  {
    name: "PG_BINDIR",
    default: "`pg_config --bindir`, then `/usr/lib/postgresql/*/bin`",
    description:
      "where PostgreSQL's tools are, for `npm run backup` / `restore` (pg_dump, pg_restore) and `npm run test:pg`",
  },
  {
    name: "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_REGION",
    default: "none",
    description: "the credentials of an `s3://` `STORAGE_URL`, read by the AWS SDK itself",
  },
  {
    name: "OTEL_SERVICE_NAME",
    default: "`creative-ai-studio`",
    description:
      "the traces' `service.name` (with `OTEL_EXPORTER_OTLP_ENDPOINT`), read by the OpenTelemetry SDK itself",
  },
  {
    name: "OTEL_EXPORTER_OTLP_HEADERS",
    default: "none",
    description:
      "headers sent with every trace export (`name=value,…`, e.g. a collector's API key), read by the OpenTelemetry SDK itself",
  },
  {
    name: "OTEL_TRACES_SAMPLER",
    default: "`parentbased_always_on`",
    description:
      "which requests are traced (e.g. `parentbased_traceidratio` with `OTEL_TRACES_SAMPLER_ARG=0.1` for one in ten), read by the OpenTelemetry SDK itself",
  },
  {
    name: "PROMETHEUS_PATH",
    default: "`/usr/bin/prometheus`, then the `PATH`",
    description: "the Prometheus `npm run test:cluster` scrapes both instances with",
  },
];

const cell = (value: string) => value.replace(/\|/g, "\\|").replace(/\n/g, " ");

function groupTable(variables: Record<string, Variable>): string[] {
  const rows = Object.entries(variables).map(
    ([name, variable]) => `| \`${name}\` | ${cell(variable.shownDefault ?? "none")} | ${cell(variable.description)} |`,
  );
  return ["| variable | default | meaning |", "|---|---|---|", ...rows];
}

export function renderConfigurationDoc(): string {
  const lines = [
    "# Configuration",
    "",
    `<!-- ${GENERATED} -->`,
    "",
    "Every setting is an environment variable; all have working defaults. The server parses them once at",
    "start against one schema: a bad value stops it with a message naming every bad variable.",
    "`npm start` reads the process environment; it does not load `.env` files (`.env.example` lists every",
    "variable with its default).",
  ];
  for (const group of SETTING_GROUPS) lines.push("", `## ${group.title}`, "", ...groupTable(group.variables));
  lines.push(
    "",
    "## Read by the tools, not by the app",
    "",
    "| variable | default | meaning |",
    "|---|---|---|",
    ...TOOL_VARIABLES.map(
      (variable) => `| \`${variable.name}\` | ${cell(variable.default)} | ${cell(variable.description)} |`,
    ),
    "",
  );
  return lines.join("\n");
}

/** The description's first sentence, for a comment line: .env.example stays short. */
function shortly(description: string): string {
  const plain = description.replace(/`/g, "");
  const end = plain.search(/\.(\s|$)/);
  return end > 0 ? plain.slice(0, end) : plain;
}

export function renderEnvExample(): string {
  const lines = [
    `# Every variable the studio reads, with its default (${GENERATED}).`,
    "# Copy what you change to your environment: npm start reads the process environment; it does not load .env files.",
    "# A line left commented keeps the default; docs/configuration.md says more about each.",
  ];
  for (const group of SETTING_GROUPS) {
    lines.push("", `# --- ${group.title} ---`);
    for (const [name, variable] of Object.entries(group.variables) as [string, Variable][]) {
      lines.push(
        `# ${shortly(variable.description)} (default: ${(variable.shownDefault ?? "none").replace(/`/g, "")})`,
      );
      if (variable.defaultText !== null) lines.push(`${name}=${variable.defaultText}`);
      else lines.push(`# ${name}=${variable.example ?? ""}`);
    }
  }
  lines.push("");
  return lines.join("\n");
}
