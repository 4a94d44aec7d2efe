import {
  setError,
  type FieldPath,
  type FieldStore,
  type FieldValues,
  type FormStore,
  type ResponseData,
} from "@modular-forms/react";
import type { ClipboardEvent, DragEvent, FormEvent, KeyboardEvent } from "react";
import type { LIMITS } from "../../contract/limits";
import type * as Valibot from "./form-valibot";
import { ApiError, toFieldErrors, type FieldError, type HandledError } from "./api/errors";
import type { Translate } from "./i18n";
import { isPhoneKey } from "./phone-text";
import { whenIdle } from "../client/idle";

/**
 * Forms (spec §5, DESIGN §7): @modular-forms/react with valibot rules. Messages use the
 * default texts of spec §5 in the visitor's language, appear once a field is dirty (its value was
 * changed; tabbing past is not enough) or the form was submitted, and a 422 answer lands on the
 * fields it names plus a summary.
 *
 * Components that read a form signal (`field.error.value`, `form.submitted.value`, ...) must call
 * `useSignals()` from `@preact/signals-react/runtime`, or they never re-render on validation.
 */

/** Every form validates a field when it loses focus, then again on every change once it showed an error. */
export const FORM_OPTIONS = { validateOn: "blur", revalidateOn: "change" } as const;

export interface FormMessages {
  required: (name: string) => string;
  email: string;
  url: string;
  number: (name: string) => string;
  mismatch: (name: string) => string;
  minLength: (name: string, min: number) => string;
  maxLength: (name: string, max: number) => string;
  phone: string;
  /** Form-level: 'Sorry, not all fields are filled out correctly.' */
  formInvalid: string;
  /** Summary header: 'There were errors in your form.' */
  summary: string;
  /** Fallback: 'This field is not valid.' */
  fallback: string;
}

export function formMessages(t: Translate): FormMessages {
  return {
    required: (name) => t("form.required", { name }),
    email: t("form.email"),
    url: t("form.url"),
    number: (name) => t("form.number", { name }),
    mismatch: (name) => t("form.mismatch", { name }),
    minLength: (name, min) => t("form.minLength", { name, min }),
    maxLength: (name, max) => t("form.maxLength", { name, max }),
    phone: t("form.phone"),
    formInvalid: t("form.formInvalid"),
    summary: t("form.summary"),
    fallback: t("form.fallback"),
  };
}

/**
 * valibot loads after hydration, not with the page: a form needs its rules on the first blur or
 * submit, never to paint (docs/PERFORMANCE.md, "Bundles"). The browser starts loading it in the
 * first idle period after a form on the page asks for its rules (`formRules`), not when this module
 * runs: a prefetched page evaluates its modules without showing them. A rule asked before valibot has
 * arrived answers a promise, which modular-forms awaits like any async validator.
 */
export type V = typeof Valibot;
let valibot: V | undefined;
let loadingValibot: Promise<V> | undefined;

export function loadValibot(): Promise<V> {
  loadingValibot ??= import("./form-valibot").then((m) => (valibot = m));
  return loadingValibot;
}

let warming = false;
/** Starts loading valibot in the browser's next idle period, once. */
function warmRules(): void {
  if (warming || typeof window === "undefined") return;
  warming = true;
  whenIdle(() => void loadValibot());
}

/**
 * A modular-forms field validator: answers the message, or "" when the value is fine; a promise
 * of it only until valibot has loaded (see above).
 */
export type Validator = (value: string | null | undefined) => string | Promise<string>;
/** The same, for a rule that loads what it needs first (the phone metadata). */
export type AsyncValidator = (value: string | null | undefined) => Promise<string>;
/** A valibot schema for a field, built once valibot is there. */
export type SchemaOf = (v: V) => Valibot.GenericSchema;
type Limits = typeof LIMITS;

/** Runs a valibot schema as a field validator; an issue without a message gives the fallback. */
export function fromSchema(build: SchemaOf, fallback: string): Validator {
  let schema: Valibot.GenericSchema | undefined;
  const check = (v: V, value: string | null | undefined): string => {
    schema ??= build(v);
    const result = v.safeParse(schema, value ?? "");
    return result.success ? "" : result.issues[0]?.message || fallback;
  };
  return (value) => (valibot ? check(valibot, value) : loadValibot().then((v) => check(v, value)));
}

/**
 * The named rules, with their messages in the visitor's language. Combine them in a field's
 * `validate={[rules.required(label), rules.email()]}`; the first failing one speaks. Rules
 * other than `required` accept an empty value, so optional fields stay optional.
 */
export function formRules(t: Translate) {
  warmRules();
  const m = formMessages(t);
  const optional =
    (check: Validator): Validator =>
    (value) =>
      (value ?? "").trim() === "" ? "" : check(value);
  const rules = {
    messages: m,
    required: (name: string): Validator =>
      fromSchema((v) => v.pipe(v.string(), v.trim(), v.nonEmpty(m.required(name))), m.fallback),
    email: (): Validator => optional(fromSchema((v) => v.pipe(v.string(), v.trim(), v.email(m.email)), m.fallback)),
    url: (): Validator => optional(fromSchema((v) => v.pipe(v.string(), v.trim(), v.url(m.url)), m.fallback)),
    number: (name: string): Validator =>
      optional(fromSchema((v) => v.pipe(v.string(), v.trim(), v.regex(/^-?\d+(\.\d+)?$/, m.number(name))), m.fallback)),
    minLength: (name: string, min: number): Validator =>
      optional(fromSchema((v) => v.pipe(v.string(), v.minLength(min, m.minLength(name, min))), m.fallback)),
    maxLength: (name: string, max: number): Validator =>
      optional(fromSchema((v) => v.pipe(v.string(), v.maxLength(max, m.maxLength(name, max))), m.fallback)),
    /** The value must equal another field's current value (password confirmation). */
    matches:
      (name: string, other: () => string | null | undefined): Validator =>
      (value) =>
        (value ?? "") === (other() ?? "") ? "" : m.mismatch(name),
    /**
     * A phone number in E.164 that is valid for the country its calling code names. The numbering
     * metadata loads on first use, so forms without a phone field never download it.
     */
    phone: (): AsyncValidator => async (value) => {
      if ((value ?? "").trim() === "") return "";
      const { isValidE164 } = await import("./phone");
      return isValidE164(value) ? "" : m.phone;
    },
    /** An arbitrary valibot schema (built from the loaded valibot) with a message of the caller's choosing. */
    schema: (build: SchemaOf): Validator => optional(fromSchema(build, m.fallback)),
    /**
     * One of the contract's bounds (contract/limits.ts): a `…Min` key is a lower bound, any other an
     * upper one. The bounds arrive with valibot, so first-load chunks do not carry them.
     */
    bound: (name: string, key: keyof Limits): Validator =>
      optional(
        fromSchema(
          (v) =>
            v.pipe(
              v.string(),
              key.endsWith("Min")
                ? v.minLength(v.LIMITS[key], m.minLength(name, v.LIMITS[key]))
                : v.maxLength(v.LIMITS[key], m.maxLength(name, v.LIMITS[key])),
            ),
          m.fallback,
        ),
      ),
    /** A person's name: required, at most the contract's length. */
    personName: (name: string): Validator[] => [rules.required(name), rules.bound(name, "name")],
    /** A new password: required, within the contract's lengths (the backend checks the rest of its policy). */
    newPassword: (name: string): Validator[] => [
      rules.required(name),
      rules.bound(name, "passwordMin"),
      rules.bound(name, "passwordMax"),
    ],
  };
  return rules;
}
export type FormRules = ReturnType<typeof formRules>;

/**
 * Fields whose value the visitor has changed since the form was last reset. modular-forms' own
 * `dirty` compares with the start value, so typing a name and erasing it would hide "Name is
 * required." again; "dirty" here is the usual sticky sense (changed at least once). A reset clears
 * `touched`, which clears the mark.
 */
const edited = new WeakSet<object>();

/**
 * The message to show under a field (spec §5: "visible after a field is dirty"): only once the
 * field's value was changed, or after a submit (refused or answered with a 422). A field only
 * tabbed past is validated but stays quiet. Call from a component with useSignals().
 */
export function visibleError<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>>(
  field: FieldStore<T, N>,
  form?: FormStore<T, R>,
): string {
  if (!field.touched.value) edited.delete(field);
  else if (field.dirty.value) edited.add(field);
  const error = field.error.value;
  if (!error) return "";
  return edited.has(field) || form?.submitted.value ? error : "";
}

/** The field errors carried by a failed call (ApiError or the common handler's answer), spec §5 shape. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (error instanceof ApiError) return error.fieldErrors;
  if (error && typeof error === "object" && "errors" in error) {
    const errors = (error as HandledError).errors;
    if (Array.isArray(errors)) return errors;
    if (errors && typeof errors === "object") return toFieldErrors(errors as Record<string, string[]>);
  }
  return [];
}

/**
 * Puts a 422 answer onto the form: each error whose type names a field of the form becomes that
 * field's message (the field's messages joined by a comma, spec §5). Answers every error, for the
 * summary, in the server's order.
 */
export function applyServerErrors<T extends FieldValues, R extends ResponseData>(
  form: FormStore<T, R>,
  errors: FieldError[],
  aliases: Record<string, FieldPath<T>> = {},
): FieldError[] {
  for (const error of errors) {
    const name = (aliases[error.type] ?? error.type) as FieldPath<T>;
    if (form.internal.fields[name]) setError(form, name, error.message, { shouldFocus: false, shouldTouched: true });
  }
  return errors;
}

/* ---------- Input helpers (spec §5), as small props to spread onto an <input> ---------- */

const DIGIT = /\p{Nd}/u;

function modified(e: KeyboardEvent): boolean {
  return e.ctrlKey || e.metaKey || e.altKey;
}

const PASSING_KEYS = new Set(["Unidentified", "Process", "Shift", "AltGraph"]);

/**
 * Phone-style fields (spec §5) block every key except digits, Backspace, Delete and plus
 * (`isPhoneKey`), with or without modifiers: letters, symbols, Enter, Escape, the arrows, Home,
 * End and shortcuts such as Ctrl+V do nothing here. Two things are not keys the shopper chose and
 * pass:
 * - Tab (and Shift+Tab) moves the focus out of the field and never changes it; blocking it would
 *   trap keyboard users in the field (WCAG 2.1.2, no keyboard trap).
 * - "Unidentified" and "Process": what phone keyboards and input methods report for every key;
 *   the text they insert is filtered by `phoneBeforeInput` instead.
 * And Shift and AltGraph, pressed on their own, are how many keyboards type the plus.
 */
export function phoneKeyDown(e: KeyboardEvent<HTMLInputElement>): void {
  if (isPhoneKey(e.key) || PASSING_KEYS.has(e.key)) return;
  if (e.key === "Tab" && !e.ctrlKey && !e.metaKey && !e.altKey) return;
  e.preventDefault();
}

function isPrintable(key: string): boolean {
  return [...key].length === 1;
}

/** Refuses inserted text (typing, IME, drop) with anything other than digits and plus. */
export function phoneBeforeInput(e: FormEvent<HTMLInputElement>): void {
  const data = (e.nativeEvent as InputEvent).data;
  if (data && !/^[0-9\u0660-\u0669\u06F0-\u06F9+\s]+$/.test(data)) e.preventDefault();
}

export const phoneInputProps = {
  onKeyDown: phoneKeyDown,
  onBeforeInput: phoneBeforeInput,
  inputMode: "tel",
  dir: "ltr",
} as const;

/** True when a key is refused in a name-style field (any digit, Latin or Arabic-Indic). */
export function isNameBlockedKey(key: string): boolean {
  return isPrintable(key) && DIGIT.test(key);
}

export function nameKeyDown(e: KeyboardEvent<HTMLInputElement>): void {
  if (!modified(e) && isNameBlockedKey(e.key)) e.preventDefault();
}

export function nameBeforeInput(e: FormEvent<HTMLInputElement>): void {
  const data = (e.nativeEvent as InputEvent).data;
  if (data && DIGIT.test(data)) e.preventDefault();
}

/** Name-style fields: digit keys are blocked. */
export const nameInputProps = { onKeyDown: nameKeyDown, onBeforeInput: nameBeforeInput } as const;

/** Fields where the browser must not suggest or remember values (codes, confirmations). */
export const noAutocompleteProps = { autoComplete: "off" } as const;

function refuse(e: ClipboardEvent | DragEvent): void {
  e.preventDefault();
}

/** No copy, cut, paste or drop (the password confirmation must be typed). */
export const noCopyPasteProps = { onCopy: refuse, onCut: refuse, onPaste: refuse, onDrop: refuse } as const;
