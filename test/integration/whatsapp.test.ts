import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newUser, type Shopper } from "../support/commerce";
import { placeOrder } from "../support/orders";
import { outbox } from "../support/accounts";
import { newStaff } from "../support/console";
import { WHATSAPP_STAND_IN } from "../../worker/backend/services/messages/whatsapp-stand-in";

/**
 * WhatsApp end to end in the Workers runtime: the shopper's choice, order messages through the
 * real adapter against the offline stand-in (which posts signed status webhooks back), the SMS
 * fall-back on an error answer and on a failed status (once), and the webhook's own checks.
 */

interface Row {
  id: number;
  kind: string;
  channel: string;
  recipient: string;
  lang: string;
  status: string;
  via: string | null;
  provider_id: string | null;
  provider_status: string | null;
  provider_error: string | null;
  fell_back_at: string | null;
}

interface StandInMessage {
  id: string;
  to: string;
  template: string;
  lang: string;
  variables: string[];
  text: string;
}

const phoneRow = async (number: string, kind = "placed") =>
  env.DB.prepare(
    "SELECT n.* FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.number = ? AND n.kind = ? AND n.channel = 'sms'",
  )
    .bind(number, kind)
    .first<Row>();

const phoneOf = async (shopper: Shopper) =>
  (await env.DB.prepare("SELECT phone FROM users WHERE id = ?").bind(shopper.userId).first<string>("phone"))!;

const whatsappTo = async (phone: string) =>
  (await call<StandInMessage[]>(null, "GET", `/dev/whatsapp?to=${encodeURIComponent(phone)}`)).body.data;

/** The outbox's entries carry the channel and text besides what the shared helper types. */
type Sent = { purpose: string; channel: string; text: string | null };
const smsFor = async (phone: string, number: string) =>
  ((await outbox(phone)) as unknown as Sent[]).filter((m) => m.channel === "sms" && (m.text ?? "").includes(number));

const eventually = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 100 });

async function chooseWhatsApp(shopper: Shopper) {
  const state = await call(shopper, "GET", "/client/auth/message-channel");
  expect(state.status).toBe(200);
  const chosen = await call(shopper, "POST", "/client/auth/message-channel", {
    channel: "whatsapp",
    consent: state.body.data.consent,
  });
  expect(chosen.status).toBe(200);
  return chosen;
}

async function signedWebhook(payload: unknown, signature?: string | null) {
  const raw = JSON.stringify(payload);
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(WHATSAPP_STAND_IN.appSecret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(raw)));
  const good = `sha256=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  const sig = signature === undefined ? good : signature;
  if (sig !== null) headers["x-hub-signature-256"] = sig;
  return SELF.fetch("http://shop.test/backend/webhooks/whatsapp", { method: "POST", headers, body: raw });
}

const statusPayload = (wamid: string, status: string, extra: Record<string, unknown> = {}) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "102290129340398",
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550783881", phone_number_id: WHATSAPP_STAND_IN.phoneNumberId },
            statuses: [{ id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), ...extra }],
          },
        },
      ],
    },
  ],
});

describe("the shopper's choice of channel", () => {
  it("is SMS by default; choosing WhatsApp records the opt-in with its wording and language, and it can be withdrawn", async () => {
    const shopper = await newUser("ar");
    const phone = await phoneOf(shopper);
    const first = await call(shopper, "GET", "/client/auth/message-channel");
    expect(first.body.data).toMatchObject({ channel: "sms", whatsapp_available: true, phone, opted_in_at: null });
    expect(first.body.data.consent).toContain(phone);
    expect(first.body.data.consent).toMatch(/[\u0600-\u06FF]/);

    const chosen = await chooseWhatsApp(shopper);
    expect(chosen.body.data.channel).toBe("whatsapp");
    expect(chosen.body.data.opted_in_at).toMatch(/^\d{4}-/);
    const consents = await env.DB.prepare(
      "SELECT channel, phone, wording, lang FROM message_channel_consents WHERE user_id = ? ORDER BY id",
    )
      .bind(shopper.userId)
      .all();
    expect(consents.results).toEqual([{ channel: "whatsapp", phone, wording: first.body.data.consent, lang: "ar" }]);

    const back = await call(shopper, "POST", "/client/auth/message-channel", { channel: "sms" });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ channel: "sms", opted_in_at: null });
    const after = await env.DB.prepare("SELECT message_channel FROM users WHERE id = ?").bind(shopper.userId).first();
    expect(after).toEqual({ message_channel: "sms" });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM message_channel_consents WHERE user_id = ?")
      .bind(shopper.userId)
      .first<number>("n");
    expect(count).toBe(2);
  });

  it("a shopper without a phone cannot choose WhatsApp (422), nor can anyone choose something else", async () => {
    const shopper = await newUser("en");
    await env.DB.prepare("UPDATE users SET phone = NULL WHERE id = ?").bind(shopper.userId).run();
    const state = await call(shopper, "GET", "/client/auth/message-channel");
    expect(state.body.data).toMatchObject({ phone: null, consent: null, channel: "sms" });
    const refused = await call(shopper, "POST", "/client/auth/message-channel", { channel: "whatsapp" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.channel?.[0]).toMatch(/phone/i);
    const odd = await call(shopper, "POST", "/client/auth/message-channel", { channel: "pigeon" });
    expect(odd.status).toBe(422);
    expect(odd.body.errors?.channel).toHaveLength(1);
    expect(await call(null, "GET", "/client/auth/message-channel").then((a) => a.status)).toBe(401);
    const stored = await env.DB.prepare("SELECT message_channel FROM users WHERE id = ?").bind(shopper.userId).first();
    expect(stored).toEqual({ message_channel: "sms" });
  });

  it("a new phone never opted in: changing the number puts the choice back to SMS", async () => {
    const shopper = await newUser("en");
    expect((await chooseWhatsApp(shopper)).body.data.channel).toBe("whatsapp");
    // Any path that changes the phone (profile, code sign-in, staff, erasure) is an UPDATE of it.
    await env.DB.prepare("UPDATE users SET phone = ? WHERE id = ?").bind("+966511112222", shopper.userId).run();
    const state = await call(shopper, "GET", "/client/auth/message-channel");
    expect(state.body.data).toMatchObject({ channel: "sms", phone: "+966511112222", opted_in_at: null });
    // Chosen again for the new number, it stays through changes of anything else.
    expect((await chooseWhatsApp(shopper)).body.data.channel).toBe("whatsapp");
    await env.DB.prepare("UPDATE users SET name = 'Renamed' WHERE id = ?").bind(shopper.userId).run();
    const kept = await env.DB.prepare("SELECT message_channel FROM users WHERE id = ?").bind(shopper.userId).first();
    expect(kept).toEqual({ message_channel: "whatsapp" });
  });

  it("a wording the page showed for another phone is refused (409), and nothing is recorded", async () => {
    const shopper = await newUser("en");
    const stale = await call(shopper, "POST", "/client/auth/message-channel", {
      channel: "whatsapp",
      consent: "Send my order messages by WhatsApp to +966500000000 instead of SMS.",
    });
    expect(stale.status).toBe(409);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM message_channel_consents WHERE user_id = ?")
      .bind(shopper.userId)
      .first<number>("n");
    expect(count).toBe(0);
  });
});

describe("order messages by WhatsApp", () => {
  it("go by WhatsApp in the shopper's language with the variables filled; sent, delivered and read are recorded", async () => {
    const shopper = await newUser("ar");
    const phone = await phoneOf(shopper);
    await chooseWhatsApp(shopper);
    const order = await placeOrder(shopper);

    await eventually(async () => (await phoneRow(order.number))?.provider_status).toBe("read");
    const row = (await phoneRow(order.number))!;
    expect(row).toMatchObject({ via: "whatsapp", status: "sent", recipient: phone, lang: "ar", fell_back_at: null });
    expect(row.provider_id).toMatch(/^wamid\./);
    const statuses = await env.DB.prepare("SELECT status FROM whatsapp_statuses WHERE wamid = ? ORDER BY id")
      .bind(row.provider_id)
      .all<{ status: string }>();
    expect(statuses.results.map((s) => s.status)).toEqual(["sent", "delivered", "read"]);
    // The console's order page says the phone message went by WhatsApp and was read there.
    const manager = await newStaff("manager");
    const page = await call(manager, "GET", `/admin/orders/${order.number}`);
    expect(page.body.data.messages).toContainEqual(
      expect.objectContaining({ kind: "placed", channel: "sms", via: "whatsapp", provider_status: "read" }),
    );

    const [message, ...others] = await whatsappTo(phone);
    expect(others.filter((m) => m.text.includes(order.number))).toEqual([]);
    expect(message).toMatchObject({ id: row.provider_id, template: "souq_order_placed", lang: "ar" });
    expect(message!.variables).toHaveLength(4);
    expect(message!.variables[0]).toBe(order.number);
    expect(message!.variables[1]).toContain("ر.س");
    expect(message!.variables[3]).toContain(`/ar/order/checkout/status?order=${order.number}`);
    expect(message!.text).toContain(order.number);
    expect(message!.text).toMatch(/[\u0600-\u06FF]/);
    expect(message!.text).not.toContain("{{");
    // No SMS for it; the email goes as ever.
    expect(await smsFor(phone, order.number)).toEqual([]);
    const email = await env.DB.prepare(
      "SELECT n.status FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.number = ? AND n.channel = 'email'",
    )
      .bind(order.number)
      .first<string>("status");
    expect(["queued", "sending", "sent"]).toContain(email);
  });

  it("an English shopper who did not choose WhatsApp gets the SMS, as before", async () => {
    const shopper = await newUser("en");
    const order = await placeOrder(shopper);
    await eventually(async () => (await phoneRow(order.number))?.status).toBe("sent");
    expect((await phoneRow(order.number))!.via).toBeNull();
  });

  it("an error answer from WhatsApp sends the same message by SMS instead", async () => {
    const shopper = await newUser("en");
    const phone = await phoneOf(shopper);
    await chooseWhatsApp(shopper);
    await call(null, "POST", "/dev/whatsapp/fail", { to: phone, mode: "error" });
    const order = await placeOrder(shopper);

    await eventually(async () => (await phoneRow(order.number))?.status).toBe("sent");
    const row = (await phoneRow(order.number))!;
    expect(row).toMatchObject({ via: "sms", provider_id: null });
    expect(row.provider_error).toContain("131030");
    expect(row.fell_back_at).not.toBeNull();
    const sms = await smsFor(phone, order.number);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.purpose).toBe("order.placed");
    const manager = await newStaff("manager");
    const page = await call(manager, "GET", `/admin/orders/${order.number}`);
    expect(page.body.data.messages).toContainEqual(
      expect.objectContaining({ kind: "placed", channel: "sms", via: "sms", status: "sent" }),
    );
    expect((await whatsappTo(phone)).filter((m) => m.text.includes(order.number))).toEqual([]);
  });

  it("a failed status from the webhook sends it by SMS, once, however often the failure is reported", async () => {
    const shopper = await newUser("ar");
    const phone = await phoneOf(shopper);
    await chooseWhatsApp(shopper);
    await call(null, "POST", "/dev/whatsapp/fail", { to: phone, mode: "status" });
    const order = await placeOrder(shopper);

    await eventually(async () => (await smsFor(phone, order.number)).length).toBe(1);
    await eventually(async () => (await phoneRow(order.number))?.status).toBe("sent");
    const row = (await phoneRow(order.number))!;
    expect(row).toMatchObject({ via: "sms", provider_status: "failed" });
    expect(row.provider_id).toMatch(/^wamid\./);
    expect(row.provider_error).toContain("131026");
    // WhatsApp took it (then failed): recorded once by the stand-in.
    expect((await whatsappTo(phone)).filter((m) => m.text.includes(order.number))).toHaveLength(1);

    // Meta retries its webhook: the failure again changes nothing.
    const again = await signedWebhook(
      statusPayload(row.provider_id!, "failed", {
        recipient_id: phone.slice(1),
        errors: [{ code: 131026, title: "x" }],
      }),
    );
    expect(again.status).toBe(200);
    expect(await smsFor(phone, order.number)).toHaveLength(1);
    expect((await phoneRow(order.number))!.status).toBe("sent");
  });

  it("a shopper who chose WhatsApp gets their reset code there, with its copy-code button", async () => {
    const shopper = await newUser("en");
    const phone = await phoneOf(shopper);
    await chooseWhatsApp(shopper);
    const asked = await call(null, "POST", "/client/auth/reset-password", { phone });
    expect(asked.status).toBe(200);
    await eventually(
      async () => (await whatsappTo(phone)).find((m) => m.template === "souq_code")?.variables[0],
    ).toMatch(/^\d{6}$/);
    expect((await outbox(phone)).filter((m) => m.purpose === "reset")).toEqual([]);
  });
});

describe("sign-in codes by WhatsApp", () => {
  const signInCodeOf = async (phone: string) =>
    (await whatsappTo(phone)).find((m) => m.template === "souq_code")?.variables[0];

  it("a shopper who chose WhatsApp gets their sign-in code there, and it signs in", async () => {
    const shopper = await newUser("en");
    const phone = await phoneOf(shopper);
    await chooseWhatsApp(shopper);
    // The number was proven by a code before (a typed one would also need the password).
    await env.DB.prepare("UPDATE users SET phone_verified_at = '2025-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(shopper.userId)
      .run();
    const asked = await call(null, "POST", "/client/auth/code/request", { phone });
    expect(asked.status).toBe(200);
    await eventually(() => signInCodeOf(phone)).toMatch(/^\d{6}$/);
    const sent = (await whatsappTo(phone)).find((m) => m.template === "souq_code")!;
    expect((await outbox(phone)).filter((m) => m.purpose === "sign_in")).toEqual([]);
    const res = await call(null, "POST", "/client/auth/code/verify", { phone, code: sent.variables[0] });
    expect(res.status).toBe(200);
    expect(res.body.data.user.id).toBe(shopper.userId);
  });

  it("goes by SMS when WhatsApp answers an error, and by SMS for a number with no account or no choice", async () => {
    const shopper = await newUser("en");
    const phone = await phoneOf(shopper);
    await chooseWhatsApp(shopper);
    await call(null, "POST", "/dev/whatsapp/fail", { to: phone, mode: "error" });
    expect((await call(null, "POST", "/client/auth/code/request", { phone })).status).toBe(200);
    await eventually(async () => (await outbox(phone)).filter((m) => m.purpose === "sign_in").length).toBe(1);
    expect(await signInCodeOf(phone)).toBeUndefined();

    const plain = await newUser("en");
    const plainPhone = await phoneOf(plain);
    expect((await call(null, "POST", "/client/auth/code/request", { phone: plainPhone })).status).toBe(200);
    await eventually(async () => (await outbox(plainPhone)).filter((m) => m.purpose === "sign_in").length).toBe(1);
    expect(await signInCodeOf(plainPhone)).toBeUndefined();
  });
});

describe("the WhatsApp webhook", () => {
  it("answers Meta's subscription handshake only with the verify token", async () => {
    const base = "http://shop.test/backend/webhooks/whatsapp";
    const ok = await SELF.fetch(
      `${base}?hub.mode=subscribe&hub.verify_token=${WHATSAPP_STAND_IN.verifyToken}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("1158201444");
    const wrong = await SELF.fetch(`${base}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`);
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain("1158201444");
    const mode = await SELF.fetch(
      `${base}?hub.mode=unsubscribe&hub.verify_token=${WHATSAPP_STAND_IN.verifyToken}&hub.challenge=1`,
    );
    expect(mode.status).toBe(403);
  });

  it("refuses a delivery without a valid signature (401) and records nothing", async () => {
    const wamid = `wamid.test-${crypto.randomUUID()}`;
    const payload = statusPayload(wamid, "delivered");
    expect((await signedWebhook(payload, `sha256=${"0".repeat(64)}`)).status).toBe(401);
    expect((await signedWebhook(payload, null)).status).toBe(401);
    expect((await signedWebhook(payload, "not-a-signature")).status).toBe(401);
    const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM whatsapp_statuses WHERE wamid = ?")
      .bind(wamid)
      .first<number>("n");
    expect(none).toBe(0);
    // Signed, the same body is recorded (a status ahead of its send is kept for it).
    expect((await signedWebhook(payload)).status).toBe(200);
    const kept = await env.DB.prepare("SELECT status FROM whatsapp_statuses WHERE wamid = ?")
      .bind(wamid)
      .first<string>("status");
    expect(kept).toBe("delivered");
  });
});
