// The valibot side of contract/numbers.ts: one schema for a numeric field however it arrives. A
// JSON number is already in the stored unit (halalas, items); a text is what a person typed (a
// form field, a CSV cell) and is read by `readNumber`: riyals with up to two decimals, any of the
// digits and separators numbers.ts accepts. Each refusal says why, in the caller's words.

import * as v from "valibot";
import type { InputField, InputMessages } from "./inputs";
import { readNumber, type NumberProblem, type NumberRules } from "./numbers";

/** The message for a problem: the caller's `number` wording, or its "required"/"invalid". */
export function numberMessage(m: InputMessages, field: InputField, problem: NumberProblem, rules: NumberRules): string {
  if (problem === "empty") return m.required(field);
  return m.number ? m.number(field, problem, rules) : m.invalid(field);
}

/**
 * A number with bounds, from a JSON number (an integer in the stored unit) or a typed text.
 * Required: a missing value or an empty text says "is required".
 */
export function numberField(m: InputMessages, field: InputField, rules: Required<NumberRules>) {
  return v.pipe(
    v.optional(v.unknown(), ""),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const input = dataset.value;
      if (typeof input === "number") {
        if (!Number.isSafeInteger(input)) addIssue({ message: numberMessage(m, field, "decimals", rules) });
        else if (input < rules.min || input > rules.max)
          addIssue({ message: numberMessage(m, field, input < 0 && rules.min >= 0 ? "negative" : "range", rules) });
        else return input;
        return NEVER;
      }
      if (typeof input !== "string") {
        addIssue({ message: numberMessage(m, field, "format", rules) });
        return NEVER;
      }
      const reading = readNumber(input, rules);
      if (reading.ok) return reading.value;
      addIssue({ message: numberMessage(m, field, reading.problem, rules) });
      return NEVER;
    }),
  );
}

/** Like `numberField`, where empty (or null, or left out) means "none": null. */
export function optionalNumberField(m: InputMessages, field: InputField, rules: Required<NumberRules>) {
  const inner = numberField(m, field, rules);
  return v.pipe(
    v.optional(v.unknown(), null),
    v.rawTransform(({ dataset, addIssue, NEVER }): number | null => {
      const input = dataset.value;
      if (input === null || (typeof input === "string" && input.trim() === "")) return null;
      const result = v.safeParse(inner, input);
      if (result.success) return result.output;
      for (const issue of result.issues) addIssue({ message: issue.message });
      return NEVER;
    }),
  );
}
