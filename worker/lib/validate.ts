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
