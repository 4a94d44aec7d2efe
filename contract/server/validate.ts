import type { Context, Env, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { InputMessages } from "../inputs";
import type { Locale } from "../locale";
import { HttpError } from "./errors";
import { requestLang, say, type Bilingual } from "./i18n";
import { INVALID_INPUT, inputMessages } from "./input-messages";

/**
 * The edge's one way to check an input, for the reference backend and the
 * own server alike: a valibot schema, built from the contract (contract/inputs.ts) with the
 * messages in the request's language; a bad input is a 422 `{ message, errors: { field: [..] } }`
 * before anything is written, malformed JSON included (never a 400 or a 500). A body is read as
 * JSON only when typed `application/json`; any other type is a 415 (`typedJson`).
 *
 * `validate(target, build)` is the middleware form; `readInput(c, target, build)` the same check
 * called from a handler, for routes that must count a request (rate limits) before reading it.
 */

type Target = "json" | "query" | "param";
type Build<S> = (messages: InputMessages, lang: Locale) => S;

/**
 * Whether a request says its body is JSON. Only JSON bodies typed so are read: a page on another
 * site can send `text/plain` (or a form's types) without the browser asking first, never
 * `application/json`, so a body that merely parses as JSON is not taken for one.
 */
export function typedJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType?.trim() ?? "");
}

/** The 415 for a body of another type than `expected`, in the request's language. */
export function wrongBodyType(lang: Locale, expected: string): HttpError {
  return new HttpError(
    415,
    say(lang, {
      en: `Send the request body with the header content-type: ${expected}.`,
      ar: `أرسل محتوى الطلب مع الترويسة content-type: ${expected}.`,
    }),
  );
}

const notJson = (lang: Locale) => wrongBodyType(lang, "application/json");

const NOT_AN_OBJECT: Bilingual = {
  en: "The request body must be a JSON object.",
  ar: "يجب أن يكون محتوى الطلب كائن JSON.",
};

/** Field errors in the contract's shape: `{ field: [messages] }`; body-level issues under `body`. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string[]> {
  const flat = v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]);
  const errors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(flat.nested ?? {})) if (messages) errors[key] = messages;
  if (flat.root?.length) errors.body = flat.root;
  return errors;
}

/** The 422 for a bad input, in the request's language. */
export function invalidInput(lang: Locale, errors: Record<string, string[]>): HttpError {
  return new HttpError(422, say(lang, INVALID_INPUT), errors);
}

/** A schema is built once per language and kept: the messages are the only thing that differs. */
function schemaCache<S>(build: Build<S>): (lang: Locale) => S {
  const built = new Map<Locale, S>();
  return (lang) => {
    let schema = built.get(lang);
    if (!schema) built.set(lang, (schema = build(inputMessages(lang), lang)));
    return schema;
  };
}

async function rawInput(c: Context, target: Target, lang: Locale): Promise<unknown> {
  // A repeated query key arrives as a list, so a schema expecting one value refuses it.
  if (target === "query") {
    return Object.fromEntries(Object.entries(c.req.queries()).map(([k, vs]) => [k, vs.length === 1 ? vs[0] : vs]));
  }
  if (target === "param") return c.req.param();
  // Typed as something else, even an empty body is refused: it is a form's, not a JSON call's.
  const type = c.req.header("content-type");
  if (type !== undefined && !typedJson(type)) throw notJson(lang);
  const text = await c.req.text();
  // An empty body reads as {}: each missing field then gets its own "is required".
  if (text.trim() === "") return {};
  if (type === undefined) throw notJson(lang);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidInput(lang, { body: [say(lang, NOT_AN_OBJECT)] });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidInput(lang, { body: [say(lang, NOT_AN_OBJECT)] });
  }
  return body;
}

async function check<S extends v.GenericSchema>(
  c: Context,
  target: Target,
  schemaFor: (lang: Locale) => S,
): Promise<v.InferOutput<S>> {
  const lang = requestLang(c);
  // The first failing rule of a field speaks, as in the forms: "Name is required.", not that and "too short".
  const result = v.safeParse(schemaFor(lang), await rawInput(c, target, lang), { abortPipeEarly: true });
  if (!result.success) throw invalidInput(lang, fieldErrors(result.issues));
  return result.output;
}

/** Reads and checks one part of the request from inside a handler; a bad input throws the 422. */
export function readInput<S extends v.GenericSchema>(
  c: Context,
  target: Target,
  build: Build<S>,
): Promise<v.InferOutput<S>> {
  return check(c, target, (lang) => build(inputMessages(lang), lang));
}

/** The middleware form: the handler reads the checked value with `c.req.valid(target)`. */
export function validate<T extends Target, S extends v.GenericSchema, E extends Env = Env, P extends string = string>(
  target: T,
  build: Build<S>,
): MiddlewareHandler<E, P, { in: { [K in T]: v.InferInput<S> }; out: { [K in T]: v.InferOutput<S> } }> {
  const schemaFor = schemaCache(build);
  return async (c, next) => {
    const output = await check(c, target, schemaFor);
    c.req.addValidatedData(target, output as object);
    await next();
  };
}
