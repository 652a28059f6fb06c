import type { z } from "zod";

/** JSON error answers of the API: `{"detail": "..."}` with the status that names the problem. */
export function apiError(status: number, detail: string, headers?: HeadersInit): Response {
  return Response.json({ detail }, { status, headers });
}

/** Parses a JSON request body; a body that is not JSON is the client's mistake (400), never a 500. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, "Request body must be valid JSON");
  }
}

/** The first problem zod found, as one readable sentence. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
  const field = issue.path.join(".");
  // Our schemas carry full sentences; zod's own generic messages get the field name in front.
  return /^(Invalid|Expected|Too)/.test(issue.message) && field ? `${field}: ${issue.message}` : issue.message;
}

/** Validates API input against a schema; invalid input answers 422 with the first problem. */
export function parseApiInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw apiError(422, firstIssue(result.error));
  return result.data;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The client's address as the Node server saw it (server.mjs sets this header and drops any sent by clients). */
export const CLIENT_ADDRESS_HEADER = "x-studio-client-address";
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}
