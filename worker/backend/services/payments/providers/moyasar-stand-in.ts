import type { MoyasarPayment } from "./moyasar";

/**
 * Moyasar's payments API as development and test see it: the real adapter (moyasar.ts) calls this
 * in place of api.moyasar.com, so every test of STC Pay runs the adapter's own requests. It answers
 * the documented shapes (the payment object, the error envelope, HTTP Basic with a test secret
 * key) and Moyasar's published STC Pay sandbox rules:
 *
 *   mobile 0515555555 … 0515555559  the payment fails at once, with STC Pay's reason
 *   any other mobile                 the payment is `initiated` and a code is "sent"
 *   code 123456 or 000000            paid
 *   code 111111, 222222, 333333, 444444  failed: balance, daily limit, amount limit, timeout
 *   any other code                   failed: invalid OTP
 *
 * Payments live in KV for a day. Only what the shop calls is spoken: create (stcpay source),
 * fetch, the STC Pay code, refund. It never touches the network.
 */

export const MOYASAR_STAND_IN_BASE = "https://moyasar.stand-in.invalid/v1";
export const MOYASAR_STAND_IN_KEY = "sk_test_stand_in";

const INITIATION_REFUSALS: Record<string, string> = {
  "0515555555": "Mobile number is not registered to use the STC Pay service.",
  "0515555556": "Please update your information using the STC Pay app before attempting payment.",
  "0515555557": "The customer account status is invalid, please contact STC Pay support.",
  "0515555558": "You have exhausted your OTP attempts, please wait 15 minutes then try again.",
  "0515555559": "Please wait 60 seconds before attempting a new payment.",
};

const OTP_OUTCOMES: Record<string, { status: "paid" | "failed"; message: string }> = {
  "123456": { status: "paid", message: "Paid" },
  "000000": { status: "paid", message: "Paid" },
  "111111": { status: "failed", message: "Insufficient Balance." },
  "222222": {
    status: "failed",
    message: "You have exceeded the allowed daily transaction limit for your STC Pay account.",
  },
  "333333": { status: "failed", message: "You have exceeded the maximum allowed transaction amount." },
  "444444": { status: "failed", message: "Connection timed out while waiting for response from STC Pay service." },
};

/** The stand-in's record: the payment as answered, and the token its transaction URL carries. */
interface Stored {
  payment: MoyasarPayment & Record<string, unknown>;
  otpToken: string | null;
}

const key = (id: string) => `stand-in:moyasar:payment:${id}`;

const error = (status: number, type: string, message: string, errors: Record<string, string[]> | null = null) =>
  Response.json({ type, message, errors }, { status });

const formatted = (halalas: number, currency: string) => `${(halalas / 100).toFixed(2)} ${currency}`;

export function moyasarStandIn(kv: KVNamespace, secretKey = MOYASAR_STAND_IN_KEY): typeof fetch {
  const expectedAuth = `Basic ${btoa(`${secretKey}:`)}`;

  async function load(id: string): Promise<Stored | null> {
    return kv.get<Stored>(key(id), "json");
  }
  async function save(stored: Stored): Promise<void> {
    await kv.put(key(stored.payment.id), JSON.stringify(stored), { expirationTtl: 86_400 });
  }

  async function create(body: Record<string, unknown>): Promise<Response> {
    const errors: Record<string, string[]> = {};
    const amount = body.amount;
    const currency = typeof body.currency === "string" ? body.currency : "SAR";
    const source = (body.source ?? {}) as Record<string, unknown>;
    if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 100)
      errors.amount = ["must be at least 100"];
    if (currency !== "SAR") errors.currency = ["is not supported"];
    if (source.type !== "stcpay") errors["source.type"] = ["is not supported by the stand-in (stcpay only)"];
    else if (typeof source.mobile !== "string" || !/^05\d{8}$/.test(source.mobile))
      errors["source.mobile"] = ["is invalid"];
    if (Object.keys(errors).length) return error(400, "invalid_request_error", "Validation Failed", errors);

    const id = crypto.randomUUID();
    const mobile = source.mobile as string;
    const refusal = INITIATION_REFUSALS[mobile];
    const otpToken = refusal ? null : crypto.randomUUID().replace(/-/g, "");
    const now = new Date().toISOString();
    const payment = {
      id,
      status: refusal ? "failed" : "initiated",
      amount: amount as number,
      fee: 0,
      currency,
      refunded: 0,
      refunded_at: null,
      captured: 0,
      captured_at: null,
      voided_at: null,
      description: typeof body.description === "string" ? body.description : null,
      amount_format: formatted(amount as number, currency),
      fee_format: formatted(0, currency),
      refunded_format: formatted(0, currency),
      captured_format: formatted(0, currency),
      invoice_id: null,
      ip: null,
      callback_url: typeof body.callback_url === "string" ? body.callback_url : null,
      created_at: now,
      updated_at: now,
      metadata: (body.metadata as Record<string, string> | undefined) ?? null,
      source: {
        type: "stcpay",
        mobile,
        reference_number: null,
        branch: null,
        cashier: null,
        transaction_url: otpToken ? `${MOYASAR_STAND_IN_BASE}/stc_pays/${id}/proceed?otp_token=${otpToken}` : null,
        message: refusal ?? null,
      },
    } satisfies MoyasarPayment & Record<string, unknown>;
    await save({ payment, otpToken });
    return Response.json(payment, { status: 201 });
  }

  async function proceed(id: string, token: string | null, body: Record<string, unknown>): Promise<Response> {
    const stored = await load(id);
    if (!stored || !stored.otpToken || token !== stored.otpToken) return error(404, "api_error", "Object not found");
    if (stored.payment.status !== "initiated")
      return error(400, "invalid_request_error", "Payment is not in initiated state");
    if (typeof body.otp_value !== "string" || !body.otp_value)
      return error(400, "invalid_request_error", "Validation Failed", { otp_value: ["can't be blank"] });
    const outcome = OTP_OUTCOMES[body.otp_value] ?? { status: "failed", message: "Invalid OTP" };
    stored.payment = {
      ...stored.payment,
      status: outcome.status,
      updated_at: new Date().toISOString(),
      source: { ...stored.payment.source, message: outcome.message, reference_number: String(Date.now()) },
    };
    await save(stored);
    return Response.json(stored.payment);
  }

  async function refund(id: string, body: Record<string, unknown>): Promise<Response> {
    const stored = await load(id);
    if (!stored) return error(404, "api_error", "Object not found");
    const { payment } = stored;
    if (payment.status !== "paid" && payment.status !== "refunded")
      return error(400, "invalid_request_error", "Payment is not refundable");
    const already = payment.refunded ?? 0;
    const amount = body.amount === undefined ? payment.amount - already : body.amount;
    if (typeof amount !== "number" || !Number.isInteger(amount) || amount <= 0)
      return error(400, "invalid_request_error", "Validation Failed", { amount: ["is invalid"] });
    if (already + amount > payment.amount)
      return error(400, "invalid_request_error", "Refund amount is greater than the refundable amount");
    const refunded = already + amount;
    const now = new Date().toISOString();
    stored.payment = {
      ...payment,
      status: "refunded",
      refunded,
      refunded_at: now,
      refunded_format: formatted(refunded, payment.currency),
      updated_at: now,
    };
    await save(stored);
    return Response.json(stored.payment);
  }

  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const base = new URL(MOYASAR_STAND_IN_BASE);
    if (url.origin !== base.origin) throw new Error(`The Moyasar stand-in was asked for ${url.origin}`);
    const path = url.pathname.slice(base.pathname.length);
    const body = (request.method === "POST" ? await request.json().catch(() => ({})) : {}) as Record<string, unknown>;

    // The transaction URL is a bearer address (its token): it needs no key, as Moyasar's does not.
    const code = /^\/stc_pays\/([^/]+)\/proceed$/.exec(path);
    if (code && request.method === "POST") return proceed(code[1], url.searchParams.get("otp_token"), body);

    if (request.headers.get("authorization") !== expectedAuth)
      return error(401, "authentication_error", "Invalid authorization credentials");
    if (path === "/payments" && request.method === "POST") return create(body);
    const one = /^\/payments\/([^/]+)$/.exec(path);
    if (one && request.method === "GET") {
      const stored = await load(decodeURIComponent(one[1]));
      return stored ? Response.json(stored.payment) : error(404, "api_error", "Object not found");
    }
    const refundOf = /^\/payments\/([^/]+)\/refund$/.exec(path);
    if (refundOf && request.method === "POST") return refund(decodeURIComponent(refundOf[1]), body);
    return error(404, "api_error", "Not found");
  };
}
