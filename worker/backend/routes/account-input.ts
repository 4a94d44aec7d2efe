import type { Context } from "hono";
import * as v from "valibot";
import { E164, EMAIL, OTP_CODE } from "../../../contract/inputs";
import { LIMITS } from "../../../contract/limits";
import type { BackendEnv, Lang } from "../env";
import { say } from "../../../contract/server/i18n";
import { MESSAGES, type Identifier } from "../services/accounts/accounts";
import { OTP_PURPOSES, type ShopperOtpPurpose as OtpPurpose } from "../services/accounts/otp";
import { invalidInput, readInput } from "../../../contract/server/validate";
import { msg, type MessageKey } from "../messages";

/**
 * Input schemas of the account calls. The messages are shopper-facing, so the schemas are built
 * in the caller's language; `fieldErrors` from validate.ts gives the contract's 422 shape.
 */

const isPurpose = (s: string): boolean => (OTP_PURPOSES as readonly string[]).includes(s);

export function fields(lang: Lang) {
  const t = (key: MessageKey, params?: Record<string, string | number>) => say(lang, msg(key), params);
  type Field = "email" | "phone" | "name" | "password" | "code" | "resetToken";
  const required = (field: Field) => t("accounts.input.required", { field: t(`accounts.input.fieldNames.${field}`) });
  /** A missing key reads as "" so that it gets the field's own "is required" message. */
  const text = (field: Field) => v.optional(v.string(required(field)), "");
  const email = v.pipe(
    text("email"),
    v.trim(),
    v.toLowerCase(),
    v.maxLength(LIMITS.email, t("accounts.input.emailTooLong", { max: LIMITS.email })),
    v.check((s) => s === "" || EMAIL.test(s), t("accounts.input.emailInvalid")),
  );
  const phone = v.pipe(
    text("phone"),
    v.transform((s) => s.replace(/[\s\-().]/g, "")),
    v.check((s) => s === "" || E164.test(s), t("accounts.input.phoneInvalid")),
  );
  const nonEmpty = (field: Field) => v.check((s: string) => s.length > 0, required(field));
  return {
    name: v.pipe(
      text("name"),
      v.trim(),
      nonEmpty("name"),
      v.maxLength(LIMITS.name, t("accounts.input.nameTooLong", { max: LIMITS.name })),
    ),
    requiredEmail: v.pipe(email, nonEmpty("email")),
    optionalEmail: v.optional(email, ""),
    optionalPhone: v.optional(v.nullable(phone, ""), ""),
    /** Policy (length, common passwords) is checked by the service; here only presence and a sane bound. */
    password: v.pipe(
      text("password"),
      nonEmpty("password"),
      v.maxLength(LIMITS.passwordMax * 4, t("accounts.passwordTooLong")),
    ),
    loginPassword: v.pipe(
      text("password"),
      nonEmpty("password"),
      v.maxLength(LIMITS.passwordMax * 4, t("accounts.passwordTooLong")),
    ),
    /** Asked for by the profile only when the email or phone changes; the service decides. */
    currentPassword: v.pipe(
      v.optional(v.string(t("accounts.input.currentPasswordNotText")), ""),
      v.maxLength(LIMITS.passwordMax * 4, t("accounts.passwordTooLong")),
    ),
    confirmation: v.optional(v.string(t("accounts.input.confirmationNotText")), ""),
    code: v.pipe(text("code"), v.trim(), v.regex(OTP_CODE, t("accounts.input.codeShape"))),
    /** A code that only some calls need (the service decides): empty or of the code's shape. */
    optionalCode: v.pipe(
      v.optional(v.string(t("accounts.input.codeShape")), ""),
      v.trim(),
      v.check((s) => s === "" || OTP_CODE.test(s), t("accounts.input.codeShape")),
    ),
    purpose: v.pipe(
      v.optional(v.string(), ""),
      v.check(isPurpose, t("accounts.input.purposeInvalid")),
      v.transform((s) => s as OtpPurpose),
    ),
    resetToken: v.pipe(text("resetToken"), v.regex(/^[A-Za-z0-9_-]{20,128}$/, say(lang, MESSAGES.resetTokenInvalid))),
  };
}

export type Fields = ReturnType<typeof fields>;

function invalid(c: Context<BackendEnv>, errors: Record<string, string[]>): never {
  throw invalidInput(c.get("lang"), errors);
}

/**
 * Reads and checks a JSON body with the account schemas above, through the edge's one validator
 * (contract/server/validate.ts): anything else, malformed JSON included, is a 422, never a 500.
 */
export function body<S extends v.GenericSchema>(
  c: Context<BackendEnv>,
  build: (f: Fields) => S,
): Promise<v.InferOutput<S>> {
  return readInput(c, "json", (_m, lang) => build(fields(lang)));
}

/** `password_confirmation` must repeat `password`. */
export function confirmed(c: Context<BackendEnv>, input: { password: string; password_confirmation: string }): void {
  if (input.password !== input.password_confirmation) {
    invalid(c, { password_confirmation: [say(c.get("lang"), msg("accounts.input.confirmationMismatch"))] });
  }
}

/** Exactly one of `email` or `phone` names the account; email wins when both are sent. */
export function identifierOf(c: Context<BackendEnv>, input: { email: string; phone: string }): Identifier {
  if (input.email) return { field: "email", value: input.email };
  if (input.phone) return { field: "phone", value: input.phone };
  return invalid(c, { email: [say(c.get("lang"), msg("accounts.input.emailOrPhoneRequired"))] });
}
