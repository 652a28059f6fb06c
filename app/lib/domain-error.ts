/**
 * The one error that crosses from models and services into the doors: a status that names the
 * problem (HTTP's numbers, because both doors speak HTTP), a detail a person may read, and optional
 * data the answer carries (for example a 409's `current` version). The API answers it as
 * `{"detail", ...data}` (app/lib/http/responder.server.ts `errorResponse`); screens show its detail or docs/screens.md#error-messages
 * text for the status. No door reads `detail` to decide what to do: it branches on `status` or `code`.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly options: {
      /** Extra fields of the JSON answer, e.g. { current } on a conflict. */
      data?: Record<string, unknown>;
      /** Response headers, e.g. Allow on 405 or Retry-After on 429. */
      headers?: Record<string, string>;
      /** A stable name for a door to branch on when the status alone is not enough. */
      code?: string;
    } = {},
  ) {
    super(detail);
    this.name = "DomainError";
  }

  get data() {
    return this.options.data;
  }

  get code() {
    return this.options.code;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
