// Checkout as the backend answers it (the options and their totals), and what a shopper sends to
// place an order, inferred from the schema both sides run (contract/inputs.ts `checkoutInput`).
// Part of the contract between the storefront and the backend (DESIGN §6, §10). Money is in halalas.
import type { ShownPromise } from "./delivery-promise";
import type * as v from "valibot";
import type { addressFields, checkoutInput } from "./inputs";
import type { InstalmentRule } from "./instalments.ts";
import type { Totals } from "./orders";

/** A shipping method the backend offers, priced for this cart. */
export interface ShippingMethod {
  id: string;
  name: string;
  price: number;
  eta: string;
}

/**
 * The card networks and wallets a shop's payment page takes, as the shop enables them: each is
 * shown with its mark beside the method that takes it.
 */
export const PAYMENT_MARKS = ["mada", "visa", "mastercard", "applepay"] as const;
/** A mark: what the payment page takes, or a method that is its own mark (STC Pay). */
export type PaymentMark = (typeof PAYMENT_MARKS)[number] | "stcpay" | "tabby" | "tamara";

/**
 * How a shopper may pay: `card`, on the payment provider's page (cards and the wallets it takes);
 * `stcpay`, the STC Pay wallet, confirmed on the shop's own page with the code STC Pay sends;
 * `tabby` and `tamara`, four interest-free payments on the provider's page; `cod`, cash on
 * delivery, confirmed with a code texted to the delivery phone.
 */
export const PAYMENT_METHODS = ["card", "stcpay", "tabby", "tamara", "cod"] as const;
export type PaymentMethodId = (typeof PAYMENT_METHODS)[number];

/** A payment method the backend offers (none when no payment provider is configured). */
export interface PaymentMethod {
  id: PaymentMethodId;
  /** The method in words, naming what it takes ("Pay online: mada, Visa, Mastercard or Apple Pay"). */
  name: string;
  /** What it takes, to show as marks; absent from a backend that names none. */
  marks?: PaymentMark[];
  /** A pay-later method's split, for the line under it ("4 interest-free payments of …"). */
  instalments?: InstalmentRule;
  /** What choosing it adds to the total, in halalas (the cash-on-delivery fee). */
  fee?: number;
}

/** GET /checkout/options: the methods and the totals for the current cart and chosen method. */
export interface CheckoutOptions {
  shipping_methods: ShippingMethod[];
  payment_methods: PaymentMethod[];
  totals: Totals;
  /** The VAT rate prices include, e.g. 0.15. */
  vat_rate?: number;
  /** Goods (after discount) from which standard shipping is free, in halalas. */
  free_shipping_threshold?: number;
  /** The shipping zone the rates are for (the delivery city's); null or absent: the rest of the country. */
  shipping_zone?: string | null;
  /** When an order placed now for the city would arrive (contract/delivery-promise.ts); absent from a backend without promises. */
  delivery_promise?: ShownPromise;
}

type AddressSchema = v.ObjectSchema<ReturnType<typeof addressFields>, undefined>;

/** A delivery address as a form sends it (POST /checkout `address`, the fields of a saved address). */
export type NewAddress = v.InferInput<AddressSchema>;
/** A delivery address as the backend reads it: trimmed, empty optional fields as null. */
export type DeliveryAddress = v.InferOutput<AddressSchema>;

type MethodSchema<Id extends string> = v.GenericSchema<string, Id>;
type CheckoutSchema<S extends string, P extends string> = ReturnType<
  typeof checkoutInput<MethodSchema<S>, MethodSchema<P>>
>;

/** What POST /checkout sends: a new address or a saved one's id, and the chosen methods. */
export type CheckoutRequest = v.InferInput<CheckoutSchema<string, string>>;

/** POST /checkout as a backend reads it, with its own method ids. */
export type CheckoutInput<S extends string = string, P extends string = string> = v.InferOutput<CheckoutSchema<S, P>>;
