import type { Lang } from "../../../env";
import type { PaymentMethodId } from "../../../../../contract/checkout";

/** What every payment gateway adapter speaks (index.ts picks one; sandbox.ts and moyasar.ts are two). */

export interface PaymentRecord {
  id: string;
  order_id: number;
  order_number: string;
  provider: string;
  /** `card`: the provider's page; `stcpay`: the wallet, confirmed with its code on the shop's page. */
  method: PaymentMethodId;
  status: "initiated" | "challenge" | "paid" | "failed";
  amount: number;
  currency: string;
  provider_ref: string | null;
  return_url: string;
}

/** What a provider reports about a payment. `pending`: nothing final yet. */
export interface ProviderResult {
  /** Our payment id; empty when the gateway only names its own reference (`providerRef`). */
  paymentId: string;
  status: "paid" | "failed" | "pending";
  providerRef: string | null;
  /** The gateway's reason, shown to the shopper on a failure. */
  message: string | null;
  threeDs?: "passed" | "failed" | null;
  /** Amount and currency the gateway confirmed, checked against the payment. */
  amount?: number;
  currency?: string;
}

export interface WebhookEvent {
  /** The provider's event id: the webhook is applied once per id. */
  eventId: string;
  type: string;
  result: ProviderResult | null;
}

export interface StartInput {
  payment: PaymentRecord;
  email: string;
  lang: Lang;
  /** Absolute origin of the shop, for gateways that need absolute URLs. */
  origin: string;
  /** Where the backend is reachable from the browser (e.g. /backend). */
  backendBase: string;
  /** The shopper's return address with payment_id and order already added (same-origin path). */
  returnPath: string;
  /** The order's buyer, address and lines, for a provider that scores the purchase (pay later). */
  order?: BnplOrder;
}

/** What the shop tells a pay-later provider about the order: its buyer, address and lines, as pre-scoring needs. */
export interface BnplOrder {
  buyer: { name: string; email: string; phone: string };
  address: { city: string; address: string; zip: string };
  items: { title: string; quantity: number; unit_price: number; reference_id: string }[];
  shipping: number;
  vat: number;
  discount: number;
  /** When the buyer's account began (ISO), or now for a guest. */
  registeredSince: string;
}

/** What a gateway answered to a refund. `failed` carries its reason for the console. */
export interface RefundResult {
  status: "succeeded" | "failed";
  /** The gateway's reference of the refund (or of the refunded payment). */
  providerRef: string | null;
  message: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  /** Creates the payment at the gateway; answers where to send the shopper. */
  start(input: StartInput): Promise<{ redirectUrl: string; providerRef: string | null }>;
  /** Asks the gateway for a payment's state after the shopper came back; null: nothing to add. */
  verifyReturn(payment: PaymentRecord, params: URLSearchParams): Promise<ProviderResult | null>;
  /** Verifies a webhook's signature over the raw body and parses it; throws WebhookRejected. */
  parseWebhook(rawBody: string, headers: Headers): Promise<WebhookEvent>;
  /**
   * Refunds `amount` (minor units) of a paid payment. Answers `failed` for a refusal the gateway
   * explains; throws when the gateway cannot be reached (the caller records that as a failure).
   */
  refund(payment: PaymentRecord, amount: number, reason: string | null): Promise<RefundResult>;
}

/**
 * A gateway that takes STC Pay on the shop's own page: the mobile number starts the payment (STC
 * Pay texts a code to it, or refuses at once), and the code confirms it.
 */
export interface StcPayGateway {
  initiateStcPay(input: {
    payment: PaymentRecord;
    mobile: string;
    lang: Lang;
    origin: string;
    returnPath: string;
  }): Promise<{ result: ProviderResult; transactionUrl: string | null }>;
  /** Sends the code to the payment's transaction URL; the answer is the payment, paid or failed. */
  confirmStcPay(payment: PaymentRecord, transactionUrl: string, otp: string): Promise<ProviderResult>;
}

export class WebhookRejected extends Error {}

/** The provider will not take this payment (a pay-later provider's pre-scoring); `reason` is its code. */
export class PaymentRefused extends Error {
  constructor(readonly reason: string) {
    super(`payment refused: ${reason}`);
  }
}
