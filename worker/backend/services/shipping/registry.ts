import type { Env } from "../../env";
import type { CarrierId } from "../../../../contract/shipping";
import type { Carrier } from "./carrier";
import { courierCarrier } from "./courier";
import { aramexFromEnv } from "./aramex";

/**
 * The carriers this shop can ship with now: the local courier always (its waybills are the
 * shop's own), Aramex once its account is configured (development and test: against its stand-in).
 * Null for a carrier that cannot run here, so nothing is created with it.
 */
export function carrierOf(env: Env, id: CarrierId | string): Carrier | null {
  if (id === "courier") return courierCarrier();
  if (id === "aramex") return aramexFromEnv(env);
  return null;
}

/** The courier's webhook key. Fails closed outside development and test: a missing secret never falls back to a public string. */
export function courierWebhookSecret(env: Pick<Env, "COURIER_WEBHOOK_SECRET" | "ENVIRONMENT">): string | null {
  if (env.COURIER_WEBHOOK_SECRET) return env.COURIER_WEBHOOK_SECRET;
  return env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test" ? "development-courier-webhook-secret" : null;
}
