import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HttpError } from "../lib/errors";

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
export class BackendError extends HttpError {}

export const notFound = (message = "Not found") => new BackendError(404, message);
export const unprocessable = (errors: Record<string, string[]>, message = "The given data was invalid.") =>
  new BackendError(422, message, errors);

/** Work to run after the answer: the request's waitUntil, or none without an execution context (a direct app.request). */
export function deferOf(c: Context): ((task: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (task) => ctx.waitUntil(task);
  } catch {
    return undefined;
  }
}
