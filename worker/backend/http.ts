import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HttpError } from "../../contract/server/errors";

/** The backend's envelope (DESIGN §6): success `{ data, message? }`, errors `{ message, errors? }`. */
export function ok<T>(
  c: Context,
  data: T,
  init: { message?: string; meta?: Record<string, unknown>; status?: ContentfulStatusCode } = {},
) {
  const body: Record<string, unknown> = { data };
  if (init.message) body.message = init.message;
  if (init.meta) body.meta = init.meta;
  const res = c.json(body, init.status ?? 200);
  answers.set(res, body);
  return res;
}

/**
 * The value each answer of `ok` was serialised from, by its Response: the edge cache reads the
 * products an answer carries from it (cache.ts, liveSnapshotOf) instead of parsing the JSON it
 * was just written as. A Response made any other way is not here: its body is parsed.
 */
const answers = new WeakMap<Response, unknown>();
export const answerValueOf = (res: Response): unknown => answers.get(res);

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

/** An XML document to save (an e-invoice): never cached, named for the download. */
export const xmlAnswer = (xml: string, name: string) =>
  new Response(xml, {
    headers: {
      "content-type": "application/xml; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "private, no-store",
    },
  });
