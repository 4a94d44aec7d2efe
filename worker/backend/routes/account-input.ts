import type { Context } from "hono";
import * as v from "valibot";
import { E164, EMAIL, OTP_CODE } from "../../../contract/inputs";
import { LIMITS } from "../../../contract/limits";
import type { BackendEnv, Lang } from "../env";
import { say } from "../../../contract/server/i18n";
import { MESSAGES, type Identifier } from "../services/accounts/accounts";
import { OTP_PURPOSES, type ShopperOtpPurpose as OtpPurpose } from "../services/accounts/otp";
import { invalidInput, readInput } from "../../../contract/server/validate";

/**
 * Input schemas of the account calls. The messages are shopper-facing, so the schemas are built
 * in the caller's language; `fieldErrors` from validate.ts gives the contract's 422 shape.
 */

const isPurpose = (s: string): boolean => (OTP_PURPOSES as readonly string[]).includes(s);

export function fields(lang: Lang) {
  const t = (en: string, ar: string) => say(lang, { en, ar });
  const required = (en: string, ar: string) => t(`${en} is required.`, `${ar} مطلوب.`);
  /** A missing key reads as "" so that it gets the field's own "is required" message. */
  const text = (en: string, ar: string) => v.optional(v.string(required(en, ar)), "");
  const email = v.pipe(
    text("Email", "البريد الإلكتروني"),
    v.trim(),
    v.toLowerCase(),
    v.maxLength(
      LIMITS.email,
      t(
        `The email may not be longer than ${LIMITS.email} characters.`,
        `يجب ألا يزيد البريد الإلكتروني عن ${LIMITS.email} حرفًا.`,
      ),
    ),
    v.check(
      (s) => s === "" || EMAIL.test(s),
      t("Please enter a valid email address.", "يرجى إدخال بريد إلكتروني صالح."),
    ),
  );
  const phone = v.pipe(
    text("Phone", "رقم الجوال"),
    v.transform((s) => s.replace(/[\s\-().]/g, "")),
    v.check(
      (s) => s === "" || E164.test(s),
      t("Please enter a valid phone number in international format.", "يرجى إدخال رقم جوال صالح بالصيغة الدولية."),
    ),
  );
  const nonEmpty = (en: string, ar: string) => v.check((s: string) => s.length > 0, required(en, ar));
  return {
    t,
    name: v.pipe(
      text("Name", "الاسم"),
      v.trim(),
      nonEmpty("Name", "الاسم"),
      v.maxLength(
        LIMITS.name,
        t(`The name may not be longer than ${LIMITS.name} characters.`, `يجب ألا يزيد الاسم عن ${LIMITS.name} حرف.`),
      ),
    ),
    requiredEmail: v.pipe(email, nonEmpty("Email", "البريد الإلكتروني")),
    optionalEmail: v.optional(email, ""),
    optionalPhone: v.optional(v.nullable(phone, ""), ""),
    /** Policy (length, common passwords) is checked by the service; here only presence and a sane bound. */
    password: v.pipe(
      text("Password", "كلمة المرور"),
      nonEmpty("Password", "كلمة المرور"),
      v.maxLength(
        LIMITS.passwordMax * 4,
        t("The password may not be longer than 128 characters.", "يجب ألا تزيد كلمة المرور عن 128 حرفًا."),
      ),
    ),
    loginPassword: v.pipe(
      text("Password", "كلمة المرور"),
      nonEmpty("Password", "كلمة المرور"),
      v.maxLength(
        LIMITS.passwordMax * 4,
        t("The password may not be longer than 128 characters.", "يجب ألا تزيد كلمة المرور عن 128 حرفًا."),
      ),
    ),
    /** Asked for by the profile only when the email or phone changes; the service decides. */
    currentPassword: v.pipe(
      v.optional(v.string(t("The current password must be text.", "يجب أن تكون كلمة المرور الحالية نصًا.")), ""),
      v.maxLength(
        LIMITS.passwordMax * 4,
        t("The password may not be longer than 128 characters.", "يجب ألا تزيد كلمة المرور عن 128 حرفًا."),
      ),
    ),
    confirmation: v.optional(
      v.string(t("Password confirmation must be text.", "يجب أن يكون تأكيد كلمة المرور نصًا.")),
      "",
    ),
    code: v.pipe(
      text("Code", "الرمز"),
      v.trim(),
      v.regex(OTP_CODE, t("The code must be 6 digits.", "يجب أن يتكون الرمز من 6 أرقام.")),
    ),
    purpose: v.pipe(
      v.optional(v.string(), ""),
      v.check(isPurpose, t("The purpose must be verify or reset.", "يجب أن يكون الغرض verify أو reset.")),
      v.transform((s) => s as OtpPurpose),
    ),
    resetToken: v.pipe(
      text("Reset token", "رمز إعادة التعيين"),
      v.regex(/^[A-Za-z0-9_-]{20,128}$/, say(lang, MESSAGES.resetTokenInvalid)),
    ),
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
    const f = fields(c.get("lang"));
    invalid(c, {
      password_confirmation: [f.t("Password confirmation does not match.", "تأكيد كلمة المرور غير مطابق.")],
    });
  }
}

/** Exactly one of `email` or `phone` names the account; email wins when both are sent. */
export function identifierOf(c: Context<BackendEnv>, input: { email: string; phone: string }): Identifier {
  if (input.email) return { field: "email", value: input.email };
  if (input.phone) return { field: "phone", value: input.phone };
  const f = fields(c.get("lang"));
  return invalid(c, { email: [f.t("Email or phone is required.", "البريد الإلكتروني أو رقم الجوال مطلوب.")] });
}
