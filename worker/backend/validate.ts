import { vValidator } from "@hono/valibot-validator";
import type { ValidationTargets } from "hono";
import * as v from "valibot";

/** Field errors in the contract's shape: `{ field: [messages] }`; body-level issues under `body`. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string[]> {
  const flat = v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]);
  const errors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(flat.nested ?? {})) if (messages) errors[key] = messages;
  if (flat.root?.length) errors.body = flat.root;
  return errors;
}

/**
 * Validates one part of the request with a valibot schema; a bad input answers
 * 422 `{ message, errors: { field: [..] } }` before the handler runs, so nothing is written.
 */
export function validate<Target extends keyof ValidationTargets, S extends v.GenericSchema>(target: Target, schema: S) {
  return vValidator(target, schema, (result, c) => {
    if (!result.success) {
      return c.json({ message: "The given data was invalid.", errors: fieldErrors(result.issues) }, 422);
    }
  });
}

/** Query strings arrive as text: these turn them into bounded numbers and booleans. */
export const queryInt = (min: number, max: number, fallback?: number) =>
  v.pipe(
    fallback === undefined ? v.string() : v.optional(v.string(), String(fallback)),
    v.regex(/^\d{1,12}$/, `Must be a whole number between ${min} and ${max}.`),
    v.transform(Number),
    v.minValue(min, `Must be at least ${min}.`),
    v.maxValue(max, `Must be at most ${max}.`),
  );
