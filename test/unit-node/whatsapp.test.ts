import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import sendRequestDoc from "../fixtures/whatsapp/send-template.request.json";
import sendAnswerDoc from "../fixtures/whatsapp/send-template.response.json";
import authRequestDoc from "../fixtures/whatsapp/send-authentication.request.json";
import errorDoc from "../fixtures/whatsapp/error.response.json";
import deliveredDoc from "../fixtures/whatsapp/webhook-status-delivered.json";
import failedDoc from "../fixtures/whatsapp/webhook-status-failed.json";
import messageDoc from "../fixtures/whatsapp/webhook-message.json";
import {
  parameterText,
  readSendAnswer,
  templateMessage,
  verifyWhatsAppSignature,
  whatsappConfig,
  whatsappNumber,
  WhatsAppSendError,
  type WhatsAppEnv,
} from "../../worker/backend/services/messages/whatsapp.ts";
import {
  bodyVariables,
  CODE_TEMPLATE,
  ORDER_TEMPLATES,
  renderTemplate,
  templateBody,
  WHATSAPP_TEMPLATES,
  type WhatsAppTemplate,
} from "../../worker/backend/services/messages/whatsapp-templates.ts";
import { statusesOf } from "../../worker/backend/services/messages/whatsapp-webhook.ts";
import { ORDER_MESSAGE_KINDS } from "../../worker/backend/services/messages/types.ts";
import type { Lang } from "../../worker/backend/env.ts";

/**
 * The WhatsApp adapter against Meta's documented shapes (test/fixtures/whatsapp/), the webhook's
 * signature check, and the templates as data against their bodies in the message catalogue.
 */

const sign = (secret: string, raw: string) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

describe("the send request", () => {
  it("is Meta's documented template message, body parameters in order", () => {
    const template: WhatsAppTemplate = {
      name: "order_delivery_update",
      category: "UTILITY",
      languages: ["en"],
      variables: ["number", "total"],
    };
    // Meta's example names its language en_US; the shop's templates are submitted as en and ar.
    expect(templateMessage("+16505551234", template, "en_US" as Lang, ["Pablo", "566701"])).toEqual(sendRequestDoc);
  });

  it("an authentication template repeats the code on its copy-code button, as Meta's example does", () => {
    const template: WhatsAppTemplate = { ...CODE_TEMPLATE, name: "verification_code" };
    expect(templateMessage("12015553931", template, "en_US" as Lang, ["J$FpnYnP"])).toEqual(authRequestDoc);
  });

  it("refuses a count of values the template does not take", () => {
    expect(() => templateMessage("966500000000", ORDER_TEMPLATES.placed, "en", ["SQ-1"])).toThrow(/4 variables/);
  });

  it("makes a value WhatsApp would refuse into one it takes", () => {
    expect(parameterText("King Fahd Rd\nRiyadh\t12345")).toBe("King Fahd Rd, Riyadh, 12345");
    expect(parameterText("a     b")).toBe("a b");
    expect(parameterText("   ")).toBe("-");
  });

  it("writes a stored phone as WhatsApp's international digits", () => {
    expect(whatsappNumber("+966512345678")).toBe("966512345678");
    expect(whatsappNumber("0512345678")).toBe("966512345678");
    expect(whatsappNumber("00966512345678")).toBe("966512345678");
    expect(whatsappNumber("+14155550100")).toBeNull();
  });
});

describe("the send answer", () => {
  it("reads the documented success: the wamid and the recipient's WhatsApp id", () => {
    expect(readSendAnswer(200, sendAnswerDoc)).toEqual({
      wamid: "wamid.HBgLMTY1MDUwNzY1MjAVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA",
      waId: "16505551234",
    });
  });

  it("reads the documented error into a WhatsAppSendError with its code, subcode and trace id", () => {
    let caught: unknown;
    try {
      readSendAnswer(400, errorDoc);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(WhatsAppSendError);
    const error = (caught as WhatsAppSendError).error;
    expect(error.code).toBe(131030);
    expect(error.error_subcode).toBe(2655007);
    expect(error.fbtrace_id).toBe("AI0ZtF0sxfEDoDWwxHIc1FX");
    expect(error.message).toContain("allowed list");
    expect((caught as WhatsAppSendError).status).toBe(400);
  });

  it("an answer of neither shape is an error, even a 200", () => {
    expect(() => readSendAnswer(200, { messaging_product: "whatsapp" })).toThrow(WhatsAppSendError);
    expect(() => readSendAnswer(502, null)).toThrow(/502/);
  });
});

describe("the status webhook", () => {
  it("reads Meta's delivered and failed notifications, errors included", () => {
    expect(statusesOf(deliveredDoc)).toEqual([
      {
        id: "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3MTE5MjVBOTE3MDk5QUVFM0YA",
        status: "delivered",
        timestamp: "1750263773",
        recipient_id: "16505551234",
      },
    ]);
    const [failed] = statusesOf(failedDoc)!;
    expect(failed!.status).toBe("failed");
    expect(failed!.errors?.[0]).toMatchObject({ code: 131026, title: "Message undeliverable" });
  });

  it("an incoming message carries no status, and a body of another kind is not WhatsApp's", () => {
    expect(statusesOf(messageDoc)).toEqual([]);
    expect(statusesOf({ object: "page", entry: [] })).toBeNull();
    expect(statusesOf("nonsense")).toBeNull();
  });

  it("accepts only the raw body's HMAC-SHA256 with the app secret, in X-Hub-Signature-256's form", async () => {
    const raw = JSON.stringify(deliveredDoc);
    const good = sign("app-secret", raw);
    expect(await verifyWhatsAppSignature("app-secret", raw, good)).toBe(true);
    expect(await verifyWhatsAppSignature("app-secret", raw, good.toUpperCase().replace("SHA256=", "sha256="))).toBe(
      true,
    );
    // Wrong secret, altered body, the bare hex without sha256=, nothing at all.
    expect(await verifyWhatsAppSignature("other-secret", raw, good)).toBe(false);
    expect(await verifyWhatsAppSignature("app-secret", `${raw} `, good)).toBe(false);
    expect(await verifyWhatsAppSignature("app-secret", raw, good.slice("sha256=".length))).toBe(false);
    expect(await verifyWhatsAppSignature("app-secret", raw, "")).toBe(false);
    expect(await verifyWhatsAppSignature("app-secret", raw, null)).toBe(false);
  });
});

describe("the templates", () => {
  it("every order message kind has a UTILITY template, and codes the AUTHENTICATION one with its copy-code button", () => {
    for (const kind of ORDER_MESSAGE_KINDS) expect(ORDER_TEMPLATES[kind]?.category, kind).toBe("UTILITY");
    expect(CODE_TEMPLATE).toMatchObject({ category: "AUTHENTICATION", variables: ["code"], copyCodeButton: true });
    const names = WHATSAPP_TEMPLATES.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_]{1,512}$/);
  });

  it("each body, in English and Arabic, uses exactly its variables {{1}}..{{n}}, as Meta requires", () => {
    for (const template of WHATSAPP_TEMPLATES)
      for (const lang of template.languages) {
        const body = templateBody(template, lang);
        const where = `${template.name}/${lang}`;
        expect(bodyVariables(body), where).toEqual(template.variables.map((_, i) => i + 1));
        expect(body.length, where).toBeLessThanOrEqual(1024);
        // Meta refuses a utility body that starts or ends with a variable, or two side by side.
        if (template.category === "UTILITY") {
          expect(body.trim(), where).not.toMatch(/^\{\{\d+\}\}|\{\{\d+\}\}$/);
          expect(body, where).not.toMatch(/\}\}\s*\{\{/);
        }
      }
    // In English (the language submitted first) the variables come in their order.
    for (const template of WHATSAPP_TEMPLATES) {
      const seen = [...templateBody(template, "en").matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1]));
      expect(seen, template.name).toEqual([...seen].sort((a, b) => a - b));
    }
  });

  it("fills a body in the shopper's language", () => {
    const values = ["SQ-7K3F9QX2", "SAR 115.00"];
    expect(renderTemplate(ORDER_TEMPLATES.paid, "en", values)).toBe(
      "Your Souq order SQ-7K3F9QX2 for SAR 115.00 is confirmed. We will tell you when it ships.",
    );
    const ar = renderTemplate(ORDER_TEMPLATES.paid, "ar", values);
    expect(ar).toContain("SQ-7K3F9QX2");
    expect(ar).toMatch(/[\u0600-\u06FF]/);
    expect(ar).not.toContain("{{");
  });
});

describe("the configuration", () => {
  const base = { DB: {}, KV: {}, NOTIFICATIONS: {} } as unknown as WhatsAppEnv;

  it("is off unless WHATSAPP is cloud", () => {
    expect(whatsappConfig({ ...base, ENVIRONMENT: "test" })).toBeNull();
    expect(whatsappConfig({ ...base, ENVIRONMENT: "test", WHATSAPP: "yes" })).toBeNull();
  });

  it("in production needs the phone number id and the token, and speaks to graph.facebook.com", () => {
    expect(whatsappConfig({ ...base, ENVIRONMENT: "production", WHATSAPP: "cloud", WHATSAPP_TOKEN: "t" })).toBeNull();
    const config = whatsappConfig({
      ...base,
      ENVIRONMENT: "production",
      WHATSAPP: "cloud",
      WHATSAPP_TOKEN: "t",
      WHATSAPP_PHONE_NUMBER_ID: "123",
    });
    expect(config).toMatchObject({ apiUrl: "https://graph.facebook.com", phoneNumberId: "123", token: "t" });
    // A production shop never talks to the stand-in, even when pointed at the dev route.
    expect(
      whatsappConfig({
        ...base,
        ENVIRONMENT: "production",
        WHATSAPP: "cloud",
        WHATSAPP_TOKEN: "t",
        WHATSAPP_PHONE_NUMBER_ID: "123",
        WHATSAPP_API_URL: "https://shop.example/backend/dev/whatsapp",
      })?.apiUrl,
    ).toBe("https://shop.example/backend/dev/whatsapp");
  });

  it("in development and test uses the stand-in, unset or at the shop's own dev route", () => {
    expect(whatsappConfig({ ...base, ENVIRONMENT: "test", WHATSAPP: "cloud" })?.apiUrl).toContain(
      "/backend/dev/whatsapp",
    );
    expect(
      whatsappConfig({
        ...base,
        ENVIRONMENT: "development",
        WHATSAPP: "cloud",
        WHATSAPP_API_URL: "http://localhost:8787/backend/dev/whatsapp",
      })?.token,
    ).toBe("stand-in-whatsapp-token");
  });
});
