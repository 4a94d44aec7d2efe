import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { say } from "../i18n";
import { requireUser } from "../identity";
import { createAddress, deleteAddress, listAddresses, updateAddress, type AddressInput } from "../services/addresses";
import { body, fields } from "./account-input";

/** Addresses of the signed-in user: /client/addresses CRUD. Another user's id is 404. */
export const addressesRoutes = new Hono<BackendEnv>();

function addressSchema(c: Context<BackendEnv>) {
  const { t } = fields(c.get("lang"));
  const required = (en: string, ar: string, max: number) =>
    v.pipe(
      v.optional(v.string(t(`${en} is required.`, `${ar} مطلوب.`)), ""),
      v.trim(),
      v.minLength(1, t(`${en} is required.`, `${ar} مطلوب.`)),
      v.maxLength(max, t(`${en} may not be longer than ${max} characters.`, `يجب ألا يزيد ${ar} عن ${max} حرفًا.`)),
    );
  const optional = (en: string, ar: string, max: number) =>
    v.optional(
      v.nullable(
        v.pipe(
          v.string(t(`${en} must be text.`, `يجب أن يكون ${ar} نصًا.`)),
          v.trim(),
          v.maxLength(max, t(`${en} may not be longer than ${max} characters.`, `يجب ألا يزيد ${ar} عن ${max} حرفًا.`)),
          v.transform((s) => (s === "" ? null : s)),
        ),
      ),
      null,
    );
  return {
    label: optional("Label", "الوصف", 40),
    name: required("Name", "الاسم", 100),
    phone: v.pipe(
      v.optional(v.string(t("Phone is required.", "رقم الجوال مطلوب.")), ""),
      v.transform((s) => s.replace(/[\s\-().]/g, "")),
      v.regex(/^\+?\d{7,15}$/, t("Please enter a valid phone number.", "يرجى إدخال رقم جوال صالح.")),
    ),
    city: required("City", "المدينة", 80),
    district: required("District", "الحي", 80),
    street: required("Street", "الشارع", 200),
    building: optional("Building", "المبنى", 40),
    postal_code: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.trim(),
          v.regex(/^(|[A-Za-z0-9 -]{3,10})$/, t("Please enter a valid postal code.", "يرجى إدخال رمز بريدي صالح.")),
          v.transform((s) => (s === "" ? null : s)),
        ),
      ),
      null,
    ),
    notes: optional("Notes", "الملاحظات", 500),
    is_default: v.optional(
      v.boolean(t("Default must be true or false.", "يجب أن تكون القيمة الافتراضية صحيحة أو خاطئة.")),
      false,
    ),
  };
}

/** The `{id}` path parameter as a positive whole number; anything else is not an address (404). */
function addressId(c: Context<BackendEnv>): number {
  const raw = c.req.param("id") ?? "";
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0;
}

addressesRoutes.get("/", async (c) => {
  const userId = await requireUser(c);
  return ok(c, await listAddresses(c.env.DB, userId));
});

addressesRoutes.post("/", async (c) => {
  const userId = await requireUser(c);
  const input: AddressInput = await body(c, () => v.object(addressSchema(c)));
  const address = await createAddress(c.env.DB, userId, input, c.get("lang"));
  return ok(c, address, { status: 201, message: say(c.get("lang"), { en: "Address saved.", ar: "تم حفظ العنوان." }) });
});

addressesRoutes.put("/:id", async (c) => {
  const userId = await requireUser(c);
  const schema = addressSchema(c);
  // PUT accepts the fields to change; omitted ones keep their value.
  const changes = await body(c, () =>
    v.object({
      label: v.exactOptional(schema.label),
      name: v.exactOptional(schema.name),
      phone: v.exactOptional(schema.phone),
      city: v.exactOptional(schema.city),
      district: v.exactOptional(schema.district),
      street: v.exactOptional(schema.street),
      building: v.exactOptional(schema.building),
      postal_code: v.exactOptional(schema.postal_code),
      notes: v.exactOptional(schema.notes),
      is_default: v.exactOptional(v.boolean()),
    }),
  );
  const address = await updateAddress(c.env.DB, userId, addressId(c), changes as Partial<AddressInput>, c.get("lang"));
  return ok(c, address, { message: say(c.get("lang"), { en: "Address saved.", ar: "تم حفظ العنوان." }) });
});

addressesRoutes.delete("/:id", async (c) => {
  const userId = await requireUser(c);
  await deleteAddress(c.env.DB, userId, addressId(c), c.get("lang"));
  return ok(c, null, { message: say(c.get("lang"), { en: "Address deleted.", ar: "تم حذف العنوان." }) });
});
