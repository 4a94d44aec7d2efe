import {
  MAIN_CITIES,
  deliveryPromise,
  type DeliveryPromise,
  type DeliveryPromiseAnswer,
  type ShownPromise,
} from "../../../../contract/delivery-promise";
import { placeKey } from "../../../../contract/regions";
import type { SettingsValues } from "../../../../contract/settings";
import { shopArrivesBy } from "../../../../contract/shop-time";
import type { Lang } from "../../env";
import { loadSettings } from "../shared/settings";

/**
 * The delivery promise on the backend: the rule (contract/delivery-promise.ts) with the store's
 * `delivery` and `shipping` settings and the server's clock. Checkout's options show it for the
 * city being typed, placing an order keeps it in `orders.promised_by`, and
 * GET /delivery/promise answers it to the product page and the cart.
 */

/** The promise for a city at `now` (the real time unless a test gives one). */
export function promiseFor(store: SettingsValues, city: string | null | undefined, now = Date.now()): DeliveryPromise {
  return deliveryPromise(now, city, store.delivery, store.shipping.zones ?? []);
}

/** A promise as the pages show it, worded in `lang` (the Hijri date only where the owner chose it). */
export function presentPromise(promise: Pick<DeliveryPromise, "arrives_by" | "hijri">, lang: Lang): ShownPromise {
  return { arrives_by: promise.arrives_by, text: shopArrivesBy(promise.arrives_by, lang, promise.hijri) };
}

/**
 * The cities the chooser offers: the country's largest cities (contract/delivery-promise.ts
 * MAIN_CITIES) and every city the owner gave a lead time of its own. The value is the English name
 * (what the cookie keeps and the backend reads), the label the name in the reader's language.
 */

export function chooserCities(store: SettingsValues, lang: Lang): DeliveryPromiseAnswer["cities"] {
  const known = new Set(MAIN_CITIES.flatMap((c) => [placeKey(c.en), placeKey(c.ar)]));
  const own = store.delivery.cities
    .filter((c) => !known.has(placeKey(c.city)))
    .map((c) => ({ value: c.city, label: c.city }));
  const collator = new Intl.Collator(lang);
  return [...MAIN_CITIES.map((c) => ({ value: c.en, label: c[lang] })), ...own].sort((a, b) =>
    collator.compare(a.label, b.label),
  );
}

/** The city of a signed-in shopper's default address, or null. */
async function defaultAddressCity(db: D1Database, userId: number): Promise<string | null> {
  return db
    .prepare("SELECT city FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id LIMIT 1")
    .bind(userId)
    .first<string>("city");
}

/** GET /delivery/promise: the default address's city when signed in and one is saved, else the chosen one. */
export async function promiseAnswer(
  env: { DB: D1Database },
  userId: number | null,
  chosen: string | undefined,
  lang: Lang,
  now = Date.now(),
): Promise<DeliveryPromiseAnswer> {
  const [store, addressCity] = await Promise.all([
    loadSettings(env),
    userId === null ? Promise.resolve(null) : defaultAddressCity(env.DB, userId),
  ]);
  const city = addressCity ?? (chosen?.trim() || null);
  return {
    city,
    source: addressCity ? "address" : city ? "chosen" : null,
    promise: city ? presentPromise(promiseFor(store, city, now), lang) : null,
    cities: chooserCities(store, lang),
  };
}
