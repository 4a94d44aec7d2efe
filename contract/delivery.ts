/**
 * Where the shop delivers: one list, read wherever a country matters. Order SMS go only to phone
 * numbers of these countries (worker/backend/services/messages/notifications.ts); any other number gets the
 * order's email alone, so an order cannot make the shop pay for texts to premium or far-away
 * ranges (SMS pumping).
 */
export interface DeliveryCountry {
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** The international calling code, digits only. */
  callingCode: string;
}

export const DELIVERY_COUNTRIES = [{ code: "SA", callingCode: "966" }] as const satisfies readonly DeliveryCountry[];

/**
 * The shop's home country: a number written the national way (a leading 0, as 05x xxx xxxx) is
 * read as one of its numbers.
 */
export const HOME_COUNTRY: DeliveryCountry = DELIVERY_COUNTRIES[0];

/**
 * A phone number as it is stored (digits and a leading plus, contract/inputs.ts `normalizePhone`)
 * in international form without the plus (`966512345678`): `+` or `00` then the country code, or
 * the home country's national form. Null for digits alone, whose country cannot be told.
 */
function internationalDigits(phone: string): string | null {
  if (/^\+\d+$/.test(phone)) return phone.slice(1);
  if (/^00\d+$/.test(phone)) return phone.slice(2);
  if (/^0[1-9]\d*$/.test(phone)) return `${HOME_COUNTRY.callingCode}${phone.slice(1)}`;
  return null;
}

/** A stored phone number of a delivery country in E.164 (`+966512345678`), or null for any other. */
export function deliveryE164(phone: string): string | null {
  const digits = internationalDigits(phone.trim());
  return digits !== null && DELIVERY_COUNTRIES.some((c) => digits.startsWith(c.callingCode)) ? `+${digits}` : null;
}

/** Whether this stored phone number is one of a country the shop delivers to. */
export function isDeliveryPhone(phone: string): boolean {
  const digits = internationalDigits(phone.trim());
  return digits !== null && DELIVERY_COUNTRIES.some((c) => digits.startsWith(c.callingCode));
}
