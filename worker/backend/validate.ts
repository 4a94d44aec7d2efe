import * as v from "valibot";

/** Query strings arrive as text: these turn them into bounded numbers and booleans. */
export const queryInt = (min: number, max: number, fallback?: number) =>
  v.pipe(
    fallback === undefined ? v.string() : v.optional(v.string(), String(fallback)),
    v.regex(/^\d{1,12}$/, `Must be a whole number between ${min} and ${max}.`),
    v.transform(Number),
    v.minValue(min, `Must be at least ${min}.`),
    v.maxValue(max, `Must be at most ${max}.`),
  );
