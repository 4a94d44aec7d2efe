import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The backend's envelope (DESIGN §6): success `{ data, message? }`, errors `{ message, errors? }`. */
export function ok<T>(
  c: Context,
  data: T,
  init: { message?: string; meta?: Record<string, unknown>; status?: ContentfulStatusCode } = {},
) {
  const body: Record<string, unknown> = { data };
  if (init.message) body.message = init.message;
  if (init.meta) body.meta = init.meta;
  return c.json(body, init.status ?? 200);
}

/** A failure a service raises; the backend's error handler turns it into the envelope. */
export class BackendError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export const notFound = (message = "Not found") => new BackendError(404, message);
export const unprocessable = (errors: Record<string, string[]>, message = "The given data was invalid.") =>
  new BackendError(422, message, errors);

export function errorBody(
  err: unknown,
  requestId?: string,
): { status: ContentfulStatusCode; body: Record<string, unknown> } {
  if (err instanceof BackendError) {
    const body: Record<string, unknown> = { message: err.message };
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
