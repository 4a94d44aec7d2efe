import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The error envelope every JSON surface of the edge answers with (DESIGN §6): `{ message, errors? }`.
 * Shared by the reference backend and the own server, which must not reach into each other.
 */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: Record<string, string[]>,
    /** Fields the answer carries beside `message` (a challenge's `challenge`, contract/challenge.ts). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function errorBody(
  err: unknown,
  requestId?: string,
): { status: ContentfulStatusCode; body: Record<string, unknown> } {
  if (err instanceof HttpError) {
    const body: Record<string, unknown> = { ...err.extra, message: err.message };
    if (err.errors) body.errors = err.errors;
    return { status: err.status, body };
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return { status, body: { message: err.message || (status === 413 ? "Payload too large" : "Request failed") } };
  }
  // Never leak internals: a generic message and the request id to find the log line.
  return { status: 500, body: { message: "Server error", request_id: requestId } };
}
