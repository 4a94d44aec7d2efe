import { bumpOnFlip } from "../catalogue/availability";
import { variantName, variantNameParts, variantTitles } from "../catalogue/variants";
import type { Env, Lang } from "../../env";
import { BackendError, unprocessable } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import type { CartOwner } from "../../identity";
import { cartContents, type CartContents } from "./cart";
import {
  findOrderByNumber,
  isGuardFailure,
  isoIn,
  type OrderAddress,
  type OrderRow,
  orderEventStatement,
} from "./orders";
import { flushNotifications, formatAmount, notifyStatements } from "../messages/notifications";
import { cartOrderedStatements } from "../cart-reminders/cart-reminders";
import { enabledPaymentMethods, instalmentRules, requirePaymentProvider } from "../payments/providers";
import { instalmentPlan, type InstalmentRule } from "../../../../contract/instalments";
import { lineNets } from "../shared/money";
import { evaluatePromo, isPerCustomerLimit, promoMessage, redeemPromoStatements } from "./promo";
import type { Totals } from "../../../../contract/orders";
import { zoneOfCity } from "../../../../contract/settings";
import { presentPromise, promiseFor } from "./delivery-promise";
import { commerceOf, loadSettings, type CommerceSettings } from "../shared/settings";
import { releaseExpiredReservations } from "./reservations";
import { MAX_HOLDING_ORDERS, MAX_NETWORK_HOLDS, NETWORK_HOLDS_BEFORE_CHALLENGE } from "./hold-caps";
import {
  PAYMENT_MARKS,
  PAYMENT_METHODS,
  type PaymentMethodId,
  type CheckoutOptions,
  type CheckoutInput as CheckoutRequestRead,
  type PaymentMark,
  type PaymentMethod,
} from "../../../../contract/checkout";
import { msg } from "../../messages";
import { codMobile } from "../payments/cash-on-delivery";

/**
 * Checkout: shipping and payment methods, totals (prices include VAT, shown as a line), and
 * placing an order. The order, its items, the stock reservation, the promo redemption and the
 * cart's removal are ONE D1 batch, so either all of it happens or none of it does.
 */

export const SHIPPING_METHODS = ["standard", "express"] as const;
export type ShippingMethodId = (typeof SHIPPING_METHODS)[number];
export { PAYMENT_METHODS, type PaymentMethodId };

const SHIPPING_TEXT: Record<ShippingMethodId, { name: Bilingual; eta: Bilingual }> = {
  standard: {
    name: msg("orders.checkout.shippingText.standard.name"),
    eta: msg("orders.checkout.shippingText.standard.eta"),
  },
  express: {
    name: msg("orders.checkout.shippingText.express.name"),
    eta: msg("orders.checkout.shippingText.express.eta"),
  },
};

const PAYMENT_TEXT: Record<PaymentMethodId, Bilingual> = {
  card: msg("orders.checkout.paymentText.card"),
  stcpay: msg("orders.checkout.paymentText.stcpay"),
  tabby: msg("orders.checkout.paymentText.tabby"),
  tamara: msg("orders.checkout.paymentText.tamara"),
  cod: msg("orders.checkout.paymentText.cod"),
};

/** Standard shipping is free once the goods (after discount) reach the threshold; express never is. */
export function shippingPrice(method: ShippingMethodId, goods: number, settings: CommerceSettings): number {
  if (method === "express") return settings.shippingExpress;
  return goods >= settings.freeShippingThreshold ? 0 : settings.shippingFlat;
}

export type { Totals };

/** The totals; `codFee`, the cash-on-delivery fee, is part of the total (and of its VAT) when given. */
export function computeTotals(
  subtotal: number,
  discount: number,
  method: ShippingMethodId,
  settings: CommerceSettings,
  currency = "SAR",
  codFee = 0,
): Totals {
  const goods = Math.max(0, subtotal - discount);
  // Nothing to ship, nothing to pay for shipping (an empty cart's options).
  const shipping = subtotal > 0 ? shippingPrice(method, goods, settings) : 0;
  const total = goods + shipping + codFee;
  return {
    subtotal,
    discount,
    shipping,
    ...(codFee > 0 ? { cod_fee: codFee } : {}),
    vat: Math.round((total * settings.vatRate) / (1 + settings.vatRate)),
    total,
    currency,
  };
}

export function shippingMethods(lang: Lang, goods: number, settings: CommerceSettings) {
  return SHIPPING_METHODS.map((id) => ({
    id,
    name: say(lang, SHIPPING_TEXT[id].name),
    price: shippingPrice(id, goods, settings),
    eta: say(lang, SHIPPING_TEXT[id].eta),
  }));
}

/** What each mark is called where a method's name lists it. */
const MARK_NAMES: Record<PaymentMark, Bilingual> = {
  mada: msg("orders.checkout.paymentMarks.mada"),
  visa: msg("orders.checkout.paymentMarks.visa"),
  mastercard: msg("orders.checkout.paymentMarks.mastercard"),
  applepay: msg("orders.checkout.paymentMarks.applepay"),
  stcpay: msg("orders.checkout.paymentMarks.stcpay"),
  tabby: msg("orders.checkout.paymentMarks.tabby"),
  tamara: msg("orders.checkout.paymentMarks.tamara"),
};

/** The networks the payment page takes unless PAYMENT_MARKS says otherwise: Saudi debit and the two card schemes. */
export const DEFAULT_PAYMENT_MARKS: readonly PaymentMark[] = ["mada", "visa", "mastercard"];

/**
 * What the shop's payment page takes, from PAYMENT_MARKS (comma-separated, any order, any case):
 * the known ones in a fixed order, unknown words left out. Unset or naming none known: the default.
 */
export function paymentMarks(env: Pick<Env, "PAYMENT_MARKS">): PaymentMark[] {
  const given = new Set((env.PAYMENT_MARKS ?? "").split(",").map((m) => m.trim().toLowerCase()));
  const known = PAYMENT_MARKS.filter((m) => given.has(m));
  return known.length ? known : [...DEFAULT_PAYMENT_MARKS];
}

/**
 * The offered methods, named: the card page with what it takes, the others with their own mark;
 * a pay-later method with its split (`rules`), for the line under it; cash on delivery with its fee.
 */
export function paymentMethods(
  lang: Lang,
  marks: readonly PaymentMark[] = DEFAULT_PAYMENT_MARKS,
  offered: readonly PaymentMethodId[] = ["card"],
  rules: readonly InstalmentRule[] = [],
  codFee = 0,
): PaymentMethod[] {
  const methods = new Intl.ListFormat(lang, { type: "disjunction" }).format(marks.map((m) => say(lang, MARK_NAMES[m])));
  return offered.map((id): PaymentMethod => {
    if (id === "card") return { id, name: say(lang, PAYMENT_TEXT.card, { methods }), marks: [...marks] };
    if (id === "cod") return { id, name: say(lang, PAYMENT_TEXT.cod), fee: codFee };
    const rule = rules.find((r) => r.provider === id);
    return { id, name: say(lang, PAYMENT_TEXT[id]), marks: [id], ...(rule ? { instalments: rule } : {}) };
  });
}

/**
 * The methods that can take this total: a pay-later method only within its limits (an empty cart's
 * zero total counts as in them, so the choice is shown before anything is added).
 */
function payable(env: Env, total: number, cod: CommerceSettings["cod"]): PaymentMethodId[] {
  const rules = instalmentRules(env);
  return enabledPaymentMethods(env).filter((id) => {
    // Cash on delivery: while the operator has it on, and up to its largest total, fee included.
    if (id === "cod") return codTakes(cod, total);
    const rule = rules.find((r) => r.provider === id);
    return !rule || total === 0 || instalmentPlan(rule, total) !== null;
  });
}

/** Whether cash on delivery may pay a total (before its fee). */
const codTakes = (cod: CommerceSettings["cod"], total: number) => cod.maxTotal > 0 && total + cod.fee <= cod.maxTotal;

/** The promo discount the cart gets now (0 when none applies). */
async function cartDiscount(db: D1Database, contents: CartContents, owner: CartOwner, lang: Lang): Promise<number> {
  if (!contents.promoCode || !contents.lines.length) return 0;
  const evaluated = await evaluatePromo(db, contents.promoCode, contents.subtotal, owner, lang);
  return evaluated.ok ? evaluated.promo.discount : 0;
}

/**
 * GET /checkout/options. `city`, the delivery address's, picks the shipping zone; without it the
 * rates are the rest of the country's (the call as the spec's shop makes it). Placing the order
 * charges the zone of the address's own city, so the quote and the order agree.
 */
export async function checkoutOptions(
  db: D1Database,
  env: Env,
  owner: CartOwner,
  method: ShippingMethodId,
  lang: Lang,
  city?: string | null,
): Promise<CheckoutOptions> {
  const store = await loadSettings({ ...env, DB: db });
  const settings = commerceOf(env, store, city);
  const zone = zoneOfCity(store.shipping, city);
  const contents = await cartContents(db, owner, lang);
  const discount = await cartDiscount(db, contents, owner, lang);
  const totals = computeTotals(contents.subtotal, discount, method, settings, contents.currency);
  return {
    shipping_methods: shippingMethods(lang, Math.max(0, contents.subtotal - discount), settings),
    // No provider can take the payment here: no method is offered, so the page says so up front.
    payment_methods: paymentMethods(
      lang,
      paymentMarks(env),
      payable(env, totals.total, settings.cod),
      instalmentRules(env),
      settings.cod.fee,
    ),
    totals,
    vat_rate: settings.vatRate,
    free_shipping_threshold: settings.freeShippingThreshold,
    /** The zone whose rates these are, in the caller's language; null: the rest of the country. */
    shipping_zone: zone ? (lang === "ar" ? zone.name_ar : zone.name_en) : null,
    // The promise for the city being typed, as placing the order now would keep it.
    delivery_promise: presentPromise(promiseFor(store, city), lang),
  };
}

/** POST /checkout as validated. A signed-in visitor may leave `email` out: the account's is used. */
export type CheckoutInput = CheckoutRequestRead<ShippingMethodId, PaymentMethodId>;

/**
 * A business buyer (company and VAT number, both or neither) gets a standard tax invoice, which
 * names them with their national address: ZATCA's rules want its building number (4 digits) and
 * postal code (5), so an order without them is refused here rather than its invoice at clearance.
 */
function businessBuyer(input: CheckoutInput, address: OrderAddress, lang: Lang): void {
  const company = input.buyer_company?.trim() ?? "";
  const vat = input.buyer_vat_number ?? "";
  if (!company && !vat) return;
  const errors: Record<string, string[]> = {};
  if (!company) errors.buyer_company = [say(lang, msg("orders.checkout.businessCompany"))];
  if (!vat) errors.buyer_vat_number = [say(lang, msg("orders.checkout.businessVatNumber"))];
  if (!/^\d{4}$/.test(address.building ?? ""))
    errors["address.building"] = [say(lang, msg("orders.checkout.businessBuilding"))];
  if (!/^\d{5}$/.test(address.postal_code ?? ""))
    errors["address.postal_code"] = [say(lang, msg("orders.checkout.businessPostalCode"))];
  const first = Object.values(errors)[0]?.[0];
  if (first) throw unprocessable(errors, first);
}

const ORDER_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** A readable, unguessable order number such as SQ-7K3F9QX2 (no 0/O, 1/I/L). */
export function newOrderNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `SQ-${[...bytes].map((b) => ORDER_ALPHABET[b % ORDER_ALPHABET.length]).join("")}`;
}

async function accountEmail(db: D1Database, userId: number): Promise<string | null> {
  const row = await db.prepare("SELECT email FROM users WHERE id = ?").bind(userId).first<{ email: string | null }>();
  return row?.email ?? null;
}

async function isVerified(db: D1Database, userId: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT verified_at FROM users WHERE id = ?")
    .bind(userId)
    .first<{ verified_at: string | null }>();
  return !!row?.verified_at;
}

async function findByIdempotencyKey(db: D1Database, owner: CartOwner, key: string): Promise<OrderRow | null> {
  const col = owner.userId !== null ? "user_id" : "guest_id";
  return db
    .prepare(`SELECT * FROM orders WHERE ${col} = ? AND idempotency_key = ?`)
    .bind(owner.userId ?? owner.guestId, key)
    .first<OrderRow>();
}

async function savedAddress(db: D1Database, owner: CartOwner, addressId: number, lang: Lang): Promise<OrderAddress> {
  const refused = () => {
    const message = say(lang, msg("orders.checkout.chooseSavedAddress"));
    return unprocessable({ address_id: [message] }, message);
  };
  if (owner.userId === null) throw refused();
  try {
    const row = await db
      .prepare(
        "SELECT name, phone, city, district, street, building, postal_code, additional_number, short_address, notes FROM addresses WHERE id = ? AND user_id = ?",
      )
      .bind(addressId, owner.userId)
      .first<OrderAddress>();
    if (!row) throw refused();
    return row;
  } catch (err) {
    if (err instanceof BackendError) throw err;
    // The addresses table belongs to the accounts migration; without it there is nothing saved.
    throw refused();
  }
}

const isIdempotencyClash = (err: unknown) =>
  /UNIQUE constraint failed: orders\.(user_id|guest_id), orders\.idempotency_key/i.test(
    String(err instanceof Error ? err.message : err),
  );
const isNumberClash = (err: unknown) =>
  /UNIQUE constraint failed: orders\.number/i.test(String(err instanceof Error ? err.message : err));
const isPromoLimit = (err: unknown) =>
  /CHECK constraint failed/i.test(String(err instanceof Error ? err.message : err)) &&
  /used_count/i.test(String(err instanceof Error ? err.message : err));

export { MAX_HOLDING_ORDERS, MAX_NETWORK_HOLDS, NETWORK_HOLDS_BEFORE_CHALLENGE };

const TOO_MANY_HOLDS: Bilingual = msg("orders.checkout.tooManyHolds");

/**
 * Refuses a new order while its owner or its email already has MAX_HOLDING_ORDERS unpaid orders
 * holding stock, and challenges it while its network has NETWORK_HOLDS_BEFORE_CHALLENGE (refused
 * at MAX_NETWORK_HOLDS), so nobody can take a product off the shelf with a script of guest
 * checkouts. Counted before the batch: the per-shopper and per-network counts bound any race.
 */
async function refuseTooManyHolds(
  db: D1Database,
  owner: CartOwner,
  email: string,
  origin: OrderOrigin,
  lang: Lang,
): Promise<void> {
  const holding = "stock_reserved = 1 AND status = 'pending_payment'";
  const ownerColumn = owner.userId !== null ? "user_id" : "guest_id";
  const [byOwner, byEmail, byNetwork] = await db.batch<{ n: number }>([
    db
      .prepare(`SELECT COUNT(*) AS n FROM orders WHERE ${ownerColumn} = ? AND ${holding}`)
      .bind(owner.userId ?? owner.guestId),
    db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE email = ? COLLATE NOCASE AND ${holding}`).bind(email),
    db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE network_hash = ? AND ${holding}`).bind(origin.networkHash),
  ]);
  const count = (r: D1Result<{ n: number }>) => r.results[0]?.n ?? 0;
  if (count(byOwner) >= MAX_HOLDING_ORDERS || count(byEmail) >= MAX_HOLDING_ORDERS)
    throw new BackendError(429, say(lang, TOO_MANY_HOLDS));
  const network = count(byNetwork);
  if (network >= MAX_NETWORK_HOLDS) throw new BackendError(429, say(lang, msg("shared.challenge.networkHolds")));
  if (network < NETWORK_HOLDS_BEFORE_CHALLENGE) return;
  // A caller that cannot be challenged (a service call without a request) is refused, as before.
  if (!origin.passChallenge) throw new BackendError(429, say(lang, TOO_MANY_HOLDS));
  await origin.passChallenge();
}

/** Where the order came from: the caller's network as stored (an HMAC, see rate-limit.ts). */
export interface OrderOrigin {
  networkHash: string | null;
  /**
   * The shop's own origin the order was placed through (lib/public-origin.ts: PUBLIC_ORIGIN, or
   * the worker's URL in development and test; never a request header). Messages link there only
   * in development and test; production links to PUBLIC_ORIGIN whatever the row says.
   */
  siteOrigin?: string | null;
  /** The request's person check (services/challenge/policy.ts), for a network holding many orders. */
  passChallenge?: () => Promise<void>;
}

/**
 * Places the order for the owner's cart. The same idempotency key from the same owner answers
 * the order it already made (`created: false`), also when two submits race. A shop that cannot
 * take payments takes no orders.
 */
export async function placeOrder(
  db: D1Database,
  env: Env,
  owner: CartOwner,
  input: CheckoutInput,
  lang: Lang,
  origin: OrderOrigin = { networkHash: null },
): Promise<{ order: OrderRow; created: boolean }> {
  requirePaymentProvider(env, lang);
  if (!enabledPaymentMethods(env).includes(input.payment_method)) {
    const message = say(lang, msg("payments.methodOff"));
    throw unprocessable({ payment_method: [message] }, message);
  }
  const existing = await findByIdempotencyKey(db, owner, input.idempotency_key);
  if (existing) return { order: existing, created: false };

  const email = input.email || (owner.userId !== null ? await accountEmail(db, owner.userId) : null);
  if (!email) {
    const message = say(lang, msg("orders.checkout.enterEmail"));
    throw unprocessable({ email: [message] }, message);
  }

  let address: OrderAddress;
  if (input.address_id !== undefined) address = await savedAddress(db, owner, input.address_id, lang);
  else if (input.address) address = input.address;
  else {
    const message = say(lang, msg("orders.checkout.enterAddress"));
    throw unprocessable({ address: [message] }, message);
  }
  businessBuyer(input, address, lang);

  await releaseExpiredReservations(db);
  await refuseTooManyHolds(db, owner, email, origin, lang);
  const contents = await cartContents(db, owner, lang);
  if (!contents.lines.length || contents.cartId === null) {
    const message = say(lang, msg("orders.checkout.cartEmpty"));
    throw unprocessable({ cart: [message] }, message);
  }
  if (contents.invalid.length) throw notAvailable(contents, contents.invalid, lang);

  // The server's own zone for the address's city: never a price the client sent.
  const store = await loadSettings({ ...env, DB: db });
  const settings = commerceOf(env, store, address.city);
  // The promise the shopper saw for this city, on the server's clock at the moment the order is
  // placed (not the page's, which may be minutes old), kept with the order.
  const promise = promiseFor(store, address.city);
  let discount = 0;
  let promoId: number | null = null;
  let promoCode: string | null = null;
  if (contents.promoCode) {
    const evaluated = await evaluatePromo(db, contents.promoCode, contents.subtotal, owner, lang, email, address.phone);
    if (!evaluated.ok) throw unprocessable({ code: [evaluated.message] }, evaluated.message);
    discount = evaluated.promo.discount;
    promoId = evaluated.row.id;
    promoCode = evaluated.row.code;
  }
  const cod = input.payment_method === "cod";
  const totals = computeTotals(
    contents.subtotal,
    discount,
    input.shipping_method,
    settings,
    contents.currency,
    cod ? settings.cod.fee : 0,
  );
  if (cod) refuseCod(settings.cod, totals, address, lang);
  const placed = await writeOrder(db, {
    owner,
    input,
    email,
    address,
    contents,
    totals,
    vatRate: settings.vatRate,
    promo: promoId !== null && promoCode !== null ? { id: promoId, code: promoCode } : null,
    // A COD order holds its stock while the shopper confirms it with the code texted to them.
    reservedUntil: isoIn(cod ? settings.cod.confirmMinutes : settings.reservationMinutes),
    networkHash: origin.networkHash,
    siteOrigin: origin.siteOrigin ?? null,
    lang,
    promisedBy: promise.arrives_by,
  });
  if (placed.created) await flushNotifications(env, placed.order.id);
  return placed;
}

/** Cash on delivery only up to the operator's largest total, and only to a Saudi mobile that can take its code. */
function refuseCod(cod: CommerceSettings["cod"], totals: Totals, address: OrderAddress, lang: Lang): void {
  if (!codTakes(cod, totals.total - cod.fee)) {
    const message = say(lang, msg("payments.cod.overMax"), { max: formatAmount(cod.maxTotal, totals.currency, lang) });
    throw unprocessable({ payment_method: [message] }, message);
  }
  if (!codMobile({ phone: address.phone })) {
    const message = say(lang, msg("payments.cod.noPhone"));
    throw unprocessable({ "address.phone": [message] }, message);
  }
}

export interface OrderDraft {
  owner: CartOwner;
  input: CheckoutInput;
  /** The order's contact email: the one given, else the account's. */
  email: string;
  address: OrderAddress;
  /** The cart as read before the batch; the batch itself re-checks the stock. */
  contents: CartContents;
  totals: Totals;
  /** The VAT rate `totals.vat` was worked out at, kept with the order for its documents. */
  vatRate: number;
  promo: { id: number; code: string } | null;
  reservedUntil: string;
  networkHash?: string | null;
  siteOrigin?: string | null;
  lang: Lang;
  /** The shop day the order is promised to arrive by (YYYY-MM-DD); absent: no promise kept. */
  promisedBy?: string | null;
}

/**
 * The one batch that makes an order: insert it and its items, reserve each line's stock by a
 * conditional update followed by its guard row, redeem the promo code, delete the cart. Any
 * refused reservation aborts all of it. Each item keeps its net: its list total less its share of
 * the discount, what returns and their credit notes give back.
 */
export async function writeOrder(db: D1Database, draft: OrderDraft): Promise<{ order: OrderRow; created: boolean }> {
  const { owner, input, email, address, contents, totals, reservedUntil, lang } = draft;
  const promoId = draft.promo?.id ?? null;
  const promoCode = draft.promo?.code ?? null;
  const nets = lineNets(
    contents.lines.map((l) => l.line_total),
    totals.discount,
  );
  // Each line is named with its variant's choice in both languages, for every document made from it.
  const titles = await variantTitles(
    db,
    contents.lines.map((l) => l.variant_id),
  );
  for (let attempt = 0; attempt < 3; attempt++) {
    const number = newOrderNumber();
    const orderId = "(SELECT id FROM orders WHERE number = ?)";
    const statements: D1PreparedStatement[] = [
      db
        .prepare(
          `INSERT INTO orders (number, user_id, guest_id, email, phone, status, subtotal, discount, shipping, vat, total, currency,
             promo_code, address, shipping_method, payment_method, stock_reserved, reserved_until, idempotency_key, network_hash,
             lang, site_origin, vat_rate, cod_fee, promised_by, buyer_company, buyer_vat_number)
           VALUES (?, ?, ?, ?, ?, 'pending_payment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          number,
          owner.userId,
          owner.guestId,
          email,
          address.phone,
          totals.subtotal,
          totals.discount,
          totals.shipping,
          totals.vat,
          totals.total,
          totals.currency,
          promoCode,
          JSON.stringify(address),
          input.shipping_method,
          input.payment_method,
          reservedUntil,
          input.idempotency_key,
          draft.networkHash ?? null,
          lang,
          draft.siteOrigin ?? null,
          // The order's documents state this rate (services/orders/invoices.ts).
          draft.vatRate,
          totals.cod_fee ?? 0,
          draft.promisedBy ?? null,
          input.buyer_vat_number ? input.buyer_company : null,
          input.buyer_vat_number ?? null,
        ),
    ];
    for (const [index, line] of contents.lines.entries()) {
      statements.push(
        db
          .prepare(
            `INSERT INTO order_items (order_id, product_id, variant_id, sku, slug, name_en, name_ar, variant_en, variant_ar,
               image, quantity, unit_price, line_total, net_total)
             SELECT ${orderId}, p.id, v.id, v.sku, p.slug, p.name_en || ?, p.name_ar || ?, ?, ?, ?, ?, ?, ?, ?
             FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?`,
          )
          // The prices the totals were computed from, so the items always add up to the order.
          .bind(
            number,
            ...variantNameParts(titles.get(line.variant_id)),
            line.product.image,
            line.quantity,
            line.product.price,
            line.line_total,
            nets[index],
            line.variant_id,
          ),
        // The conditional reservation, then its guard row: changes() is 0 when the stock was
        // short, the guard's CHECK fails, and D1 rolls the whole batch back.
        db
          .prepare(
            `UPDATE product_variants SET stock = stock - ?1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ?2 AND active = 1 AND stock >= ?1 AND (SELECT active FROM products WHERE id = product_id) = 1`,
          )
          .bind(line.quantity, line.variant_id),
        db
          .prepare(
            `INSERT INTO stock_moves (order_id, product_id, variant_id, quantity, applied) VALUES (${orderId}, ?, ?, ?, changes())`,
          )
          .bind(number, line.product_id, line.variant_id, -line.quantity),
        // The last units sold: every page showing the variant as in stock is out of date.
        bumpOnFlip(db, line.variant_id, -line.quantity),
      );
    }
    statements.push(
      orderEventStatement(db, { number }, "placed", { total: totals.total }, "shopper"),
      // A COD order's first message is its code (services/payments/cash-on-delivery.ts), then "confirmed".
      ...(input.payment_method === "cod" ? [] : notifyStatements(db, { number }, "placed")),
    );
    if (promoId !== null) statements.push(...redeemPromoStatements(db, promoId, number, owner, email, address.phone));
    // A reminded cart: the order counts as recovered, and its queued reminders are cancelled.
    if (contents.cartId !== null) statements.push(...cartOrderedStatements(db, contents.cartId, number));
    if (contents.cartId !== null) statements.push(db.prepare("DELETE FROM carts WHERE id = ?").bind(contents.cartId));

    try {
      await db.batch(statements);
    } catch (err) {
      if (isIdempotencyClash(err)) {
        const raced = await findByIdempotencyKey(db, owner, input.idempotency_key);
        if (raced) return { order: raced, created: false };
      }
      if (isNumberClash(err)) continue;
      if (isGuardFailure(err)) throw await stockGone(db, contents, lang);
      if (isPromoLimit(err)) {
        const message = say(lang, msg("orders.promo.usedUp"));
        throw unprocessable({ code: [message] }, message);
      }
      // A concurrent checkout used this customer's last use of the code, or the account is not
      // (or no longer) verified (guard in redeemPromoStatements).
      if (isPerCustomerLimit(err)) {
        const reason = owner.userId === null ? "sign_in" : (await isVerified(db, owner.userId)) ? "per_user" : "verify";
        const message = promoMessage(lang, reason);
        throw unprocessable({ code: [message] }, message);
      }
      throw err;
    }
    const order = await findOrderByNumber(db, number);
    if (!order) throw new Error("order vanished after its batch");
    return { order, created: true };
  }
  throw new Error("could not find a free order number");
}

function notAvailable(contents: CartContents, variantIds: number[], lang: Lang): BackendError {
  const names = contents.lines
    .filter((l) => variantIds.includes(l.variant_id))
    .map((l) => (l.variant ? variantName(l.product.name, l.variant) : l.product.name));
  const messages = names.map((name) => say(lang, msg("orders.checkout.noLongerAvailable"), { name }));
  return unprocessable({ quantity: messages }, messages[0]);
}

/** After a refused reservation: which lines ran short, from the stock as it is now. */
async function stockGone(db: D1Database, contents: CartContents, lang: Lang): Promise<BackendError> {
  const ids = contents.lines.map((l) => l.variant_id);
  const { results } = await db
    .prepare(
      `SELECT v.id, v.stock * v.active * p.active AS stock FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE v.id IN (${ids.map(() => "?").join(",")})`,
    )
    .bind(...ids)
    .all<{ id: number; stock: number }>();
  const stock = new Map(results.map((r) => [r.id, r.stock]));
  const short = contents.lines.filter((l) => (stock.get(l.variant_id) ?? 0) < l.quantity).map((l) => l.variant_id);
  return notAvailable(contents, short.length ? short : ids, lang);
}
