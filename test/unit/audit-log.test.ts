import { beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditRecord } from "../../contract/console";
import { auditActionName, auditChanges, auditRecordName, auditRecordPath } from "../../app/lib/audit-log";
import { consoleFormat } from "../../app/lib/console-format";
import { registerMessages, translator } from "../../app/lib/i18n";

beforeAll(() => {
  registerMessages("en", en);
  registerMessages("ar", ar);
});

const none: AuditRecord = { name: null, page: null, key: null };

describe("the audit log in the console's language", () => {
  it("names every action code the backend writes, in English and Arabic", () => {
    for (const locale of ["en", "ar"] as const) {
      const t = translator(locale);
      for (const action of AUDIT_ACTIONS) {
        const name = auditActionName(t, action);
        expect(name, action).not.toContain(".");
        expect(name, action).not.toBe("");
      }
    }
    expect(auditActionName(translator("ar"), "order.refund")).toBe("استرداد مبلغ الطلب");
    expect(auditActionName(translator("en"), "return.approve")).toBe("Return approved");
    // A code from a newer backend shows as it came rather than as a message key.
    expect(auditActionName(translator("en"), "future.action")).toBe("future.action");
  });

  it("names records as staff call them and links each to its page: a return opens its order", () => {
    const en_ = translator("en");
    const ar_ = translator("ar");
    const ret: AuditRecord = { name: "SQ-ABC123", page: "order", key: "SQ-ABC123" };
    expect(auditRecordName(en_, "return", ret)).toBe("Return of order SQ-ABC123");
    expect(auditRecordName(ar_, "return", ret)).toBe("إرجاع من الطلب SQ-ABC123");
    expect(auditRecordPath(ret)).toBe("/admin/orders/SQ-ABC123");
    expect(auditRecordPath({ name: "SAVE50", page: "promo_code", key: "7" })).toBe("/admin/promo-codes/7");
    expect(auditRecordPath({ name: "a@b.sa", page: "staff", key: null })).toBe("/admin/staff");
    expect(auditRecordPath({ name: "x.png", page: null, key: null })).toBeNull();
    for (const entity of AUDIT_ENTITIES) expect(auditRecordName(ar_, entity, none)).not.toContain(entity);
  });

  it("shows before and after as field labels with old and new values: money in riyals, states by name, no ids", () => {
    const t = translator("ar");
    const f = consoleFormat("ar");
    const order = auditChanges(t, f, {
      entity: "order",
      before: { status: "delivered", refunded: 0, carrier: "smsa", tracking_number: "T1" },
      after: { status: "delivered", refunded: 4900, carrier: "smsa", tracking_number: "T1" },
    });
    expect(order).toEqual([{ field: "refunded", label: "المبلغ المسترد", before: f.money(0), after: f.money(4900) }]);
    expect(order[0]!.after).toContain("49.00");

    const ret = auditChanges(t, f, {
      entity: "return",
      before: { status: "requested", refund_id: null },
      after: { status: "approved", refund_id: "rfd_123" },
    });
    expect(ret).toEqual(
      [{ field: "status", label: "الحالة", before: "مطلوب", after: "مقبول" }].map((c) => ({
        ...c,
        before: t("orders.returns.statuses.requested"),
        after: t("orders.returns.statuses.approved"),
      })),
    );
    expect(JSON.stringify(ret)).not.toContain("rfd_");

    const role = auditChanges(translator("en"), consoleFormat("en"), {
      entity: "staff",
      before: { role: "support" },
      after: { role: "manager" },
    });
    expect(role).toEqual([{ field: "role", label: "Role", before: "Support", after: "Manager" }]);

    // A stock adjustment: the stock after is the stock before plus the change; an empty note says nothing.
    const stock = auditChanges(translator("en"), consoleFormat("en"), {
      entity: "product",
      before: { stock: 5 },
      after: { delta: 3, reason: "received", note: null },
    });
    expect(stock.map((c) => [c.label, c.before, c.after])).toEqual([
      ["Stock", "5", "8"],
      ["Change", null, "+3"],
      ["Reason", null, "Received"],
    ]);

    // A percentage code's value is a percentage; a fixed one's is money.
    const promo = auditChanges(translator("en"), consoleFormat("en"), {
      entity: "promo_code",
      before: null,
      after: { code: "EID25", discount_type: 1, value: 25, max_discount: 10000, active: true },
    });
    expect(promo.map((c) => [c.label, c.after])).toEqual([
      ["Code", "EID25"],
      ["Active", "Yes"],
      ["Discount type", "Percentage"],
      ["Value", "25%"],
      ["Maximum discount", consoleFormat("en").money(10000)],
    ]);
  });

  it("reads a change of shipping zones as zones by name, with their regions and rates, in each language", () => {
    const zone = {
      name_en: "Western region",
      name_ar: "المنطقة الغربية",
      regions: ["makkah", "madinah"],
      standard: 1250,
      express: 3000,
      free_threshold: 20000,
    };
    const entry = {
      entity: "settings",
      before: { standard: 2500, express: 5000, free_threshold: 30000, zones: [] },
      after: { standard: 2500, express: 5000, free_threshold: 30000, zones: [zone] },
    };
    const [en_] = auditChanges(translator("en"), consoleFormat("en"), entry);
    expect(en_).toMatchObject({ field: "zones", label: "Shipping zones", before: "No zones" });
    expect(en_!.after!.replace(/\s/g, " ")).toBe(
      "Western region (Makkah, Madinah): standard SAR 12.50, express SAR 30.00, free from SAR 200.00",
    );
    const [ar_] = auditChanges(translator("ar"), consoleFormat("ar"), entry);
    expect(ar_!.label).toBe("مناطق الشحن");
    expect(ar_!.after).toContain("المنطقة الغربية (مكة المكرمة، المدينة المنورة)");
    expect(ar_!.after).not.toContain("{");
  });
});
