import path from "node:path";

/**
 * STORAGE_URL read into the store it names (DESIGN.md "Data and files"): pure, no SDK, no network, no
 * files, so the start (app/lib/storage/storage.server.ts) and the admin tool (through the build's
 * `entry.module.parseStorageUrl`) read it alike.
 */
export type StorageConfig =
  | { kind: "file"; root: string }
  | { kind: "s3"; bucket: string; prefix: string; endpoint?: string; region?: string; forcePathStyle: boolean };

/** "studio" or "/studio/" → "studio/"; empty stays empty. */
export function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  return trimmed ? `${trimmed}/` : "";
}

const S3_PARAMETERS = new Set(["endpoint", "region", "force_path_style", "prefix"]);

/**
 * Reads STORAGE_URL (pure: no network, no files). Empty or unset: files under `$DATA_DIR/media`.
 * - `file://` (the default folder) or `file:///absolute/path`
 * - `s3://bucket?endpoint=http://127.0.0.1:9000&region=us-east-1&force_path_style=true&prefix=studio`
 *   (every parameter optional; credentials from the standard AWS variables)
 */
export function parseStorageUrl(url: string | null | undefined, dataDir: string): StorageConfig {
  const raw = (url ?? "").trim();
  const defaultRoot = path.join(dataDir, "media");
  if (raw === "" || raw === "file://") return { kind: "file", root: defaultRoot };

  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(
      `STORAGE_URL is not a URL: "${raw}" (expected file:// , file:///absolute/path or s3://bucket?endpoint=…)`,
    );
  }
  if (parsed.protocol === "file:") {
    if (parsed.host !== "") {
      throw new Error(
        `STORAGE_URL "${raw}": a file URL takes an absolute path with three slashes, e.g. file:///var/lib/studio/media`,
      );
    }
    if (parsed.search || parsed.hash) throw new Error(`STORAGE_URL "${raw}": a file URL takes no parameters`);
    const root = decodeURIComponent(parsed.pathname);
    if (root === "/" || root === "") return { kind: "file", root: defaultRoot };
    return { kind: "file", root: path.resolve(root.replace(/\/+$/, "")) };
  }

  if (parsed.protocol === "s3:") {
    const bucket = parsed.hostname;
    if (!bucket) throw new Error(`STORAGE_URL "${raw}": the bucket is missing (s3://bucket?…)`);
    // S3's naming rules (3-63 lower-case letters, digits, dots and hyphens), loosely: R2 and MinIO follow them too.
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new Error(
        `STORAGE_URL "${raw}": "${bucket}" is not a valid bucket name (3-63 lower-case letters, digits, dots, hyphens)`,
      );
    }
    if (parsed.username || parsed.password) {
      throw new Error(
        `STORAGE_URL "${raw}": put credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in the URL`,
      );
    }
    if (parsed.port) throw new Error(`STORAGE_URL "${raw}": a port belongs in endpoint=, not after the bucket`);
    if (parsed.pathname !== "" && parsed.pathname !== "/") {
      throw new Error(
        `STORAGE_URL "${raw}": use ?prefix=${parsed.pathname.replace(/^\/+/, "")} for a folder inside the bucket`,
      );
    }
    if (parsed.hash) throw new Error(`STORAGE_URL "${raw}": unexpected "#…"`);
    for (const name of new Set(parsed.searchParams.keys())) {
      if (!S3_PARAMETERS.has(name)) {
        throw new Error(`STORAGE_URL "${raw}": unknown parameter "${name}" (known: ${[...S3_PARAMETERS].join(", ")})`);
      }
      if (parsed.searchParams.getAll(name).length > 1)
        throw new Error(`STORAGE_URL "${raw}": "${name}" is given twice`);
    }

    const endpoint = parsed.searchParams.get("endpoint") || undefined;
    if (endpoint !== undefined) {
      let endpointUrl: URL;
      try {
        endpointUrl = new URL(endpoint);
      } catch {
        throw new Error(
          `STORAGE_URL "${raw}": endpoint "${endpoint}" is not a URL (e.g. endpoint=http://127.0.0.1:9000)`,
        );
      }
      if (endpointUrl.protocol !== "http:" && endpointUrl.protocol !== "https:") {
        throw new Error(`STORAGE_URL "${raw}": endpoint must start with http:// or https://`);
      }
    }
    const region = parsed.searchParams.get("region") || undefined;
    if (region !== undefined && !/^[a-z0-9-]+$/i.test(region))
      throw new Error(`STORAGE_URL "${raw}": region "${region}" is not a region name`);
    const pathStyle = parsed.searchParams.get("force_path_style");
    if (pathStyle !== null && pathStyle !== "true" && pathStyle !== "false") {
      throw new Error(`STORAGE_URL "${raw}": force_path_style must be true or false, got "${pathStyle}"`);
    }
    const prefix = normalisePrefix(parsed.searchParams.get("prefix") ?? undefined);
    if (prefix.split("/").some((part) => part === "." || part === ".."))
      throw new Error(`STORAGE_URL "${raw}": prefix may not contain "." or ".." segments`);
    return { kind: "s3", bucket, prefix, endpoint, region, forcePathStyle: pathStyle === "true" };
  }

  throw new Error(`STORAGE_URL "${raw}": unsupported scheme "${parsed.protocol}" (use file:// or s3://)`);
}
