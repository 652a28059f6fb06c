import { apiFetch } from "./api-client";

/**
 * File uploads with progress (docs/screens.md#states-and-transitions: idle -> uploading with a percent -> done or failed). fetch()
 * cannot report upload progress, so this uses XMLHttpRequest. the 401 rule in docs/screens.md#states-and-transitions still holds: on a
 * 401 the session is renewed through the shared API client (one refresh for every waiting request;
 * to /login when it fails) and the upload is sent once more.
 */
export interface UploadResult<T = unknown> {
  status: number;
  ok: boolean;
  /** The parsed JSON answer (or null). */
  body: T | null;
  /** The server's `detail`, for failures. */
  detail: string | null;
}

export interface UploadOptions {
  /** 0..100, as the bytes leave the browser. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** A network failure (no HTTP answer at all): docs/screens.md#error-messages tells it apart from a refused upload. */
export class UploadNetworkError extends Error {}

function send<T>(url: string, form: FormData, { onProgress, signal }: UploadOptions): Promise<UploadResult<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      const detail =
        typeof (body as { detail?: unknown } | null)?.detail === "string" ? (body as { detail: string }).detail : null;
      resolve({ status: xhr.status, ok: xhr.status >= 200 && xhr.status < 300, body: body as T, detail });
    };
    xhr.onerror = () => reject(new UploadNetworkError("Network error during upload"));
    xhr.onabort = () => reject(new DOMException("Upload aborted", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** POSTs `form` (multipart) to `url` with progress; replays once after renewing the session on a 401. */
export async function uploadWithProgress<T = unknown>(
  url: string,
  form: FormData,
  options: UploadOptions = {},
): Promise<UploadResult<T>> {
  const first = await send<T>(url, form, options);
  if (first.status !== 401) return first;
  // apiFetch renews the session (shared refresh queue) or sends the person to /login.
  const check = await apiFetch("/api/auth/me");
  if (!check.ok) return first;
  options.onProgress?.(0);
  return send<T>(url, form, options);
}
