import * as v from "valibot";
import { VAT_NUMBER } from "./inputs";
import { CARRIER_IDS, CARRIER_RULES_MAX, LABEL_SIZES, type CarriersSettings } from "./shipping";
import type { Locale } from "./locale";
import { CUTOFF_PATTERN, isIsoDay, type DeliveryPromiseSettings } from "./delivery-promise";
import { regionOfCity, SAUDI_REGIONS, type RegionId } from "./regions";

/**
 * The store's settings (the console's settings page, owners only): what the shop charges for
 * shipping, its VAT, the seller on its tax documents, its name and logo, the return window and the
 * wording of its order messages. One schema per section, checked by the console's form and by
 * PUT /admin/settings/{section} alike. Money is integer halalas; the VAT rate a fraction (0.15).
 */

export const SETTINGS_SECTIONS = [
  "shipping",
  "tax",
  "seller",
  "store",
  "returns",
  "cod",
  "carriers",
  "delivery",
  "messages",
  "questions",
  "reviews",
  "cart_reminders",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** What delivery costs in one zone. */
export interface ShippingRates {
  /** Standard delivery, halalas; free once the goods after discount reach `free_threshold`. */
  standard: number;
  /** Express delivery, halalas; never free. */
  express: number;
  free_threshold: number;
}

/** A shipping zone: some regions of the country (contract/regions.ts) with rates of their own. */
export interface ShippingZone extends ShippingRates {
  name_en: string;
  name_ar: string;
  /** Not empty; a region belongs to one zone at most. */
  regions: RegionId[];
}

/**
 * Standard and express delivery to the shop's delivery countries (contract/delivery.ts): the
 * owner's zones, and the rates of the rest of the country (the fields of this object itself, so
 * settings saved before zones existed read as a shop with no zones and lose nothing).
 */
export interface ShippingSettings extends ShippingRates {
  zones: ShippingZone[];
}

/** The zone a delivery city is charged by: null for the rest of the country (no zone covers its region, or the city is unknown). */
export function zoneOfCity(shipping: ShippingSettings, city: string | null | undefined): ShippingZone | null {
  const region = regionOfCity(city);
  if (!region) return null;
  return (shipping.zones ?? []).find((z) => z.regions.includes(region)) ?? null;
}

export interface TaxSettings {
  /** VAT included in prices, as a fraction (0.15). Each order keeps the rate it was charged at. */
  vat_rate: number;
}

/** The seller printed on tax invoices and credit notes (the ZATCA QR carries the Arabic name). */
export interface SellerSettings {
  name_en: string;
  name_ar: string;
  /** 15 digits, starting and ending with 3. */
  vat_number: string;
  address_en: string;
  address_ar: string;
}

export interface StoreSettings {
  name_en: string;
  name_ar: string;
  /** The logo's address: a path on this site (an upload under /backend/media/) or https; empty: the built-in one. */
  logo_url: string;
}

/**
 * GET /backend/store (public, cached like the catalogue's reference lists): the store's name in
 * the request's language and its logo, which the shop's header, footer, page titles and web app
 * manifest show. A save of the store section bumps the catalogue version, so cached pages and
 * answers follow it (contract/freshness.ts). An empty `logo_url`: the built-in logo.
 */
export interface StoreIdentity {
  name: string;
  logo_url: string;
}

export const STORE_IDENTITY_PATH = "/store";

export interface ReturnsSettings {
  /** Days after delivery a shopper may ask for a return; 0 closes returns. */
  window_days: number;
}

/**
 * Cash on delivery: what it costs the shopper, the largest order it may pay, and how long an
 * order placed with it holds its stock until the shopper confirms it with the code sent to their phone.
 */
export interface CodSettings {
  /** Halalas added to the order's total (VAT included, like every price). */
  fee: number;
  /** Halalas: the largest total (fee included) paid in cash; 0 turns cash on delivery off. */
  max_total: number;
  /** Minutes an unconfirmed order holds its stock. */
  confirm_minutes: number;
}

/**
 * The delivery promise ("Arrives by Tuesday 9 December", contract/delivery-promise.ts): the daily
 * cut-off in shop time, the lead time in working days for the rest of the country, per shipping
 * zone (by the zone's English name) and per city, the public holidays (no dispatch, no delivery),
 * and whether Arabic shows the Hijri date beside the Gregorian one.
 */
export type DeliverySettings = DeliveryPromiseSettings;

/** Questions and answers on product pages (contract/questions.ts). */
export interface QuestionsSettings {
  /**
   * Buyers of a delivered order of a product may answer its questions (each answer pending until
   * staff approve it). Off: only staff answer.
   */
  buyers_answer: boolean;
}

/** The order messages whose wording the owner may change (services/messages/mail.ts renders them). */
export const MESSAGE_TEMPLATES = [
  "placed",
  "paid",
  "shipped",
  "out_for_delivery",
  "delivery_attempted",
  "delivered",
  "cancelled",
  "expired",
  "refunded",
  "return_received",
  "cancelled_unpaid",
  "return_requested",
  "return_approved",
  "return_rejected",
  "cod_confirmed",
] as const;
export type MessageTemplate = (typeof MESSAGE_TEMPLATES)[number];

/** One message's email subject and text in one language; an empty text keeps the shop's wording. */
export interface MessageWording {
  subject: string;
  text: string;
}

/** The owner's wording, per message and language; a message left out reads as the locale files say. */
export type MessagesSettings = Partial<Record<MessageTemplate, Partial<Record<Locale, MessageWording>>>>;

/**
 * When a shopper's review is shown (services/reviews): `hold`, every review waits for a
 * moderator; `clean`, a review the screening found nothing in is published at once and a
 * flagged one waits; `all`, every review is published at once (staff may still reject it).
 */
export const REVIEW_PUBLISH_RULES = ["hold", "clean", "all"] as const;
export type ReviewPublishRule = (typeof REVIEW_PUBLISH_RULES)[number];

/** Product reviews: the moderation rule, what the screening looks for, and the invitations. */
export interface ReviewsSettings {
  publish: ReviewPublishRule;
  /** Flag links and web addresses in a review's text. */
  screen_links: boolean;
  /** Flag email addresses and phone numbers (Saudi and international, in either digit set). */
  screen_contacts: boolean;
  /** Words or phrases that flag a review (matched whole, ignoring case and Arabic letter forms). */
  blocked_words: string[];
  /** Days after an order's delivery its buyer is invited to review it; 0: no invitations. */
  invitation_days: number;
}

/**
 * Reminders about a cart left at checkout (services/cart-reminders): only ever to a shopper who
 * said yes at checkout or in their profile, at most two for the same cart contents.
 */
export interface CartRemindersSettings {
  enabled: boolean;
  /** Hours a cart stays unchanged before its first reminder. */
  first_delay_hours: number;
  /** Hours after the cart's last change for the second; 0: no second reminder. */
  second_delay_hours: number;
  /** Shop-time hours (0–23) between which nothing is sent: a reminder due then waits for the end. Equal: no quiet hours. */
  quiet_start: number;
  quiet_end: number;
  /** A promo code (existing and active) offered in the reminder and put on the restored cart; empty: none. */
  promo_code: string;
}

export interface SettingsValues {
  shipping: ShippingSettings;
  tax: TaxSettings;
  seller: SellerSettings;
  store: StoreSettings;
  returns: ReturnsSettings;
  cod: CodSettings;
  carriers: CarriersSettings;
  delivery: DeliverySettings;
  messages: MessagesSettings;
  questions: QuestionsSettings;
  reviews: ReviewsSettings;
  cart_reminders: CartRemindersSettings;
}

/** GET /admin/settings: the values in force, and what the message editor needs. */
export interface ConsoleSettings {
  values: SettingsValues;
  /** The locale files' wording of every message, shown when the owner has not changed it. */
  message_defaults: Record<MessageTemplate, Record<Locale, MessageWording>>;
  /** The `{{variables}}` each message may use; those ending in `Url` are links the shop makes itself. */
  message_variables: Record<MessageTemplate, string[]>;
  /** Per section: when it was last saved from the console, and by whom (null: it reads its defaults). */
  saved: Partial<Record<SettingsSection, { at: string; by: string }>>;
}

export const SETTINGS_LIMITS = {
  /** Halalas: 10,000 riyals, far above any delivery fee. */
  shippingMax: 1_000_000,
  /** A zone holds at least one region of the thirteen, and each region is in one zone at most. */
  zonesMax: SAUDI_REGIONS.length,
  /** Halalas: a million riyals. */
  thresholdMax: 100_000_000,
  name: 120,
  address: 300,
  logoUrl: 500,
  windowDaysMax: 365,
  /** Halalas: the fee may not pass 1,000 riyals. */
  codFeeMax: 100_000,
  confirmMinutesMin: 5,
  confirmMinutesMax: 24 * 60,
  /** Grams: a carrier's weight band ends at 1,000 kg at most. */
  parcelGramsMax: 1_000_000,
  subject: 150,
  text: 1000,
  /** Working days from dispatch to the door: a month at most. */
  leadDaysMax: 30,
  /** Single-city overrides. */
  citiesMax: 200,
  /** Public holidays kept at once (a few years' worth). */
  holidaysMax: 200,
  city: 80,
  /** Review screening: words in the list, and each word's length. */
  blockedWordsMax: 200,
  blockedWord: 60,
  invitationDaysMax: 90,
  /** Cart reminders: a week before the first, a fortnight before the second. */
  reminderFirstHoursMax: 168,
  reminderSecondHoursMax: 336,
  promoCode: 40,
} as const;

/** Saudi VAT registration: 15 digits, starting and ending with 3. */
/** The seller's VAT number: the same form as a business buyer's (contract/inputs.ts). */
export const VAT_NUMBER_PATTERN = VAT_NUMBER;

/**
 * A logo: a path on this site (not `//host`), such as an upload under /backend/media/, without
 * spaces or quotes. Another site's address is refused: the page's CSP loads images from this site
 * only, so that no other host learns of every visit; data: and javascript: are refused too.
 */
export const LOGO_URL_PATTERN = /^\/(?!\/)[^\s"'<>\\]*$/;

/**
 * Something a mail client would make a link of: a scheme, `www.`, or a domain followed by a path.
 * The shop's messages carry only the links the code builds (docs/SECURITY.md, "Make the shop
 * email and text a victim a payment link"), so a wording with one of these is refused.
 */
export const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|[a-z0-9-]+\.[a-z]{2,}\//i;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** The `{{variables}}` a text uses. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** Whether a variable is a link the shop builds (services/messages/mail.ts renders only these as links). */
export const isLinkVariable = (name: string) => /^url$|Url$/.test(name);

/** What the schemas say when a field is refused; the caller words them in the reader's language. */
export interface SettingsMessages {
  required(field: string): string;
  invalid(field: string): string;
  tooLong(field: string, max: number): string;
  range(field: string, min: number, max: number): string;
  vatNumber: string;
  logoUrl: string;
  /** A wording that holds an address or a link the shop did not build. */
  linkInText: string;
  /** A `{{variable}}` the message does not have. */
  unknownVariable(name: string): string;
  /** A link variable of the shop's wording left out (the shopper would lose the link). */
  missingLink(name: string): string;
  /** A zone without regions. */
  noRegions: string;
  /** A region already in another zone (named). */
  regionTaken(region: RegionId, zone: { name_en: string; name_ar: string }): string;
  /** A cut-off that is not a time of day HH:MM. */
  cutoff: string;
  /** A holiday that is not a calendar day YYYY-MM-DD (named). */
  holiday(day: string): string;
  /** A cart's second reminder set no later than its first. */
  secondAfterFirst: string;
}

const whole = (m: SettingsMessages, field: string, min: number, max: number) =>
  v.pipe(
    v.number(m.invalid(field)),
    v.integer(m.invalid(field)),
    v.minValue(min, m.range(field, min, max)),
    v.maxValue(max, m.range(field, min, max)),
  );

const text = (m: SettingsMessages, field: string, max: number, required: boolean) =>
  v.pipe(
    v.string(m.invalid(field)),
    v.trim(),
    v.check((s) => !required || s.length > 0, m.required(field)),
    v.maxLength(max, m.tooLong(field, max)),
  );

const rates = (m: SettingsMessages) => ({
  standard: whole(m, "standard", 0, SETTINGS_LIMITS.shippingMax),
  express: whole(m, "express", 0, SETTINGS_LIMITS.shippingMax),
  free_threshold: whole(m, "free_threshold", 0, SETTINGS_LIMITS.thresholdMax),
});

/** The schema of each section but `messages` (whose checks depend on each message's variables). */
export function settingsSchemas(m: SettingsMessages) {
  return {
    shipping: v.pipe(
      v.object({
        ...rates(m),
        // Left out by a caller that knows no zones: the rest of the country is the whole country.
        zones: v.optional(
          v.pipe(
            v.array(
              v.object({
                name_en: text(m, "name_en", SETTINGS_LIMITS.name, true),
                name_ar: text(m, "name_ar", SETTINGS_LIMITS.name, true),
                regions: v.pipe(
                  v.array(v.picklist(SAUDI_REGIONS, m.invalid("regions")), m.invalid("regions")),
                  v.minLength(1, m.noRegions),
                  v.transform((r) => [...new Set(r)]),
                ),
                ...rates(m),
              }),
              m.invalid("zones"),
            ),
            v.maxLength(SETTINGS_LIMITS.zonesMax, m.invalid("zones")),
          ),
          [],
        ),
      }),
      // Once every zone reads well: a region in two zones.
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const { zones } = dataset.value;
        const owner = new Map<RegionId, ShippingZone>();
        zones.forEach((zone, i) => {
          for (const region of zone.regions) {
            const taken = owner.get(region);
            if (taken === undefined) owner.set(region, zone);
            else
              addIssue({
                message: m.regionTaken(region, taken),
                path: [
                  { type: "object", origin: "value", input: { ...dataset.value }, key: "zones", value: zones },
                  { type: "array", origin: "value", input: zones, key: i, value: zone },
                  { type: "object", origin: "value", input: { ...zone }, key: "regions", value: zone.regions },
                ],
              });
          }
        });
      }),
    ),
    tax: v.object({
      vat_rate: v.pipe(
        v.number(m.invalid("vat_rate")),
        v.minValue(0, m.range("vat_rate", 0, 50)),
        v.maxValue(0.5, m.range("vat_rate", 0, 50)),
        // Percent with at most two decimals (15, 12.5): a rate read back from a fraction.
        v.check((r) => Math.abs(r * 10_000 - Math.round(r * 10_000)) < 1e-6, m.invalid("vat_rate")),
      ),
    }),
    seller: v.object({
      name_en: text(m, "name_en", SETTINGS_LIMITS.name, true),
      name_ar: text(m, "name_ar", SETTINGS_LIMITS.name, true),
      vat_number: v.pipe(v.string(m.invalid("vat_number")), v.trim(), v.regex(VAT_NUMBER_PATTERN, m.vatNumber)),
      address_en: text(m, "address_en", SETTINGS_LIMITS.address, false),
      address_ar: text(m, "address_ar", SETTINGS_LIMITS.address, false),
    }),
    store: v.object({
      name_en: text(m, "name_en", SETTINGS_LIMITS.name, true),
      name_ar: text(m, "name_ar", SETTINGS_LIMITS.name, true),
      logo_url: v.pipe(
        text(m, "logo_url", SETTINGS_LIMITS.logoUrl, false),
        v.check((s) => s === "" || LOGO_URL_PATTERN.test(s), m.logoUrl),
      ),
    }),
    returns: v.object({
      window_days: whole(m, "window_days", 0, SETTINGS_LIMITS.windowDaysMax),
    }),
    cod: v.object({
      fee: whole(m, "fee", 0, SETTINGS_LIMITS.codFeeMax),
      max_total: whole(m, "max_total", 0, SETTINGS_LIMITS.thresholdMax),
      confirm_minutes: whole(
        m,
        "confirm_minutes",
        SETTINGS_LIMITS.confirmMinutesMin,
        SETTINGS_LIMITS.confirmMinutesMax,
      ),
    }),
    carriers: v.object({
      default: v.picklist(CARRIER_IDS, m.invalid("default")),
      rules: v.pipe(
        v.array(
          v.object({
            carrier: v.picklist(CARRIER_IDS, m.invalid("carrier")),
            regions: v.array(v.picklist(SAUDI_REGIONS, m.invalid("regions")), m.invalid("regions")),
            max_weight_grams: v.nullable(whole(m, "max_weight_grams", 1, SETTINGS_LIMITS.parcelGramsMax)),
          }),
          m.invalid("rules"),
        ),
        v.maxLength(CARRIER_RULES_MAX, m.invalid("rules")),
      ),
      label_size: v.picklist(LABEL_SIZES, m.invalid("label_size")),
      ship_from: v.object({
        name: text(m, "ship_from.name", SETTINGS_LIMITS.name, true),
        phone: v.pipe(text(m, "ship_from.phone", 20, true), v.regex(/^\+?[0-9 ]{7,20}$/, m.invalid("ship_from.phone"))),
        line1: text(m, "ship_from.line1", SETTINGS_LIMITS.address, true),
        district: text(m, "ship_from.district", SETTINGS_LIMITS.name, false),
        city: text(m, "ship_from.city", SETTINGS_LIMITS.name, true),
        postal_code: v.pipe(
          text(m, "ship_from.postal_code", 5, false),
          v.regex(/^(\d{5})?$/, m.invalid("ship_from.postal_code")),
        ),
        short_address: v.pipe(
          text(m, "ship_from.short_address", 8, false),
          v.regex(/^([A-Za-z]{4}\d{4})?$/, m.invalid("ship_from.short_address")),
        ),
      }),
    }),
    delivery: v.object({
      cutoff: v.pipe(v.string(m.invalid("cutoff")), v.trim(), v.regex(CUTOFF_PATTERN, m.cutoff)),
      lead_days: whole(m, "lead_days", 0, SETTINGS_LIMITS.leadDaysMax),
      zones: v.optional(
        v.pipe(
          v.array(
            v.object({
              zone: text(m, "zone", SETTINGS_LIMITS.name, true),
              days: whole(m, "lead_days", 0, SETTINGS_LIMITS.leadDaysMax),
            }),
            m.invalid("zones"),
          ),
          v.maxLength(SETTINGS_LIMITS.zonesMax, m.invalid("zones")),
        ),
        [],
      ),
      cities: v.optional(
        v.pipe(
          v.array(
            v.object({
              city: text(m, "city", SETTINGS_LIMITS.city, true),
              days: whole(m, "lead_days", 0, SETTINGS_LIMITS.leadDaysMax),
            }),
            m.invalid("cities"),
          ),
          v.maxLength(SETTINGS_LIMITS.citiesMax, m.invalid("cities")),
        ),
        [],
      ),
      holidays: v.optional(
        v.pipe(
          v.array(
            v.pipe(
              v.string(m.invalid("holidays")),
              v.trim(),
              v.check(isIsoDay, (issue) => m.holiday(String(issue.input))),
            ),
            m.invalid("holidays"),
          ),
          v.maxLength(SETTINGS_LIMITS.holidaysMax, m.invalid("holidays")),
          // Kept in order, each day once.
          v.transform((days) => [...new Set(days)].sort()),
        ),
        [],
      ),
      hijri: v.optional(v.boolean(m.invalid("hijri")), false),
    }),
    questions: v.object({
      buyers_answer: v.boolean(m.invalid("buyers_answer")),
    }),
    reviews: v.object({
      publish: v.picklist(REVIEW_PUBLISH_RULES, m.invalid("publish")),
      screen_links: v.boolean(m.invalid("screen_links")),
      screen_contacts: v.boolean(m.invalid("screen_contacts")),
      blocked_words: v.pipe(
        v.array(
          v.pipe(
            v.string(m.invalid("blocked_words")),
            v.trim(),
            v.maxLength(SETTINGS_LIMITS.blockedWord, m.tooLong("blocked_words", SETTINGS_LIMITS.blockedWord)),
          ),
          m.invalid("blocked_words"),
        ),
        // Each word once (whatever its case), blanks dropped, before the count is checked.
        v.transform((words) => {
          const seen = new Set<string>();
          return words.filter((w) => w !== "" && !seen.has(w.toLowerCase()) && seen.add(w.toLowerCase()));
        }),
        v.maxLength(SETTINGS_LIMITS.blockedWordsMax, m.tooLong("blocked_words", SETTINGS_LIMITS.blockedWordsMax)),
      ),
      invitation_days: whole(m, "invitation_days", 0, SETTINGS_LIMITS.invitationDaysMax),
    }),
    cart_reminders: v.pipe(
      v.object({
        enabled: v.boolean(m.invalid("enabled")),
        first_delay_hours: whole(m, "first_delay_hours", 1, SETTINGS_LIMITS.reminderFirstHoursMax),
        second_delay_hours: whole(m, "second_delay_hours", 0, SETTINGS_LIMITS.reminderSecondHoursMax),
        quiet_start: whole(m, "quiet_start", 0, 23),
        quiet_end: whole(m, "quiet_end", 0, 23),
        // Checked against the shop's promo codes by the route (it must exist and be active).
        promo_code: v.pipe(
          text(m, "promo_code", SETTINGS_LIMITS.promoCode, false),
          v.regex(/^[A-Za-z0-9_-]*$/, m.invalid("promo_code")),
        ),
      }),
      v.forward(
        v.check((s) => s.second_delay_hours === 0 || s.second_delay_hours > s.first_delay_hours, m.secondAfterFirst),
        ["second_delay_hours"],
      ),
    ),
  };
}

/**
 * The `messages` section: per message and language a subject and a text, both empty to keep the
 * shop's wording. A wording may use only its message's variables, must keep the link variables
 * the shop's wording has (an invoice link, a tracking link), and may hold no address of its own.
 * Field errors are keyed `placed.en.subject`.
 */
export function messagesSchema(m: SettingsMessages, variables: Record<MessageTemplate, string[]>) {
  const wording = (template: MessageTemplate) => {
    const allowed = new Set(variables[template]);
    const links = variables[template].filter(isLinkVariable);
    const checked = (field: "subject" | "text", max: number) =>
      v.pipe(
        text(m, field, max, false),
        v.check((s) => !LINK_LIKE.test(s), m.linkInText),
        v.rawCheck(({ dataset, addIssue }) => {
          if (!dataset.typed) return;
          for (const name of placeholdersOf(dataset.value))
            if (!allowed.has(name) || (field === "subject" && isLinkVariable(name)))
              addIssue({ message: m.unknownVariable(name) });
        }),
      );
    return v.pipe(
      v.object({ subject: checked("subject", SETTINGS_LIMITS.subject), text: checked("text", SETTINGS_LIMITS.text) }),
      v.forward(
        v.partialCheck([["subject"], ["text"]], (w) => (w.subject === "") === (w.text === ""), m.required("subject")),
        ["subject"],
      ),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed || dataset.value.text === "") return;
        const used = new Set(placeholdersOf(dataset.value.text));
        for (const link of links)
          if (!used.has(link))
            addIssue({
              message: m.missingLink(link),
              path: [
                {
                  type: "object",
                  origin: "value",
                  input: dataset.value,
                  key: "text",
                  value: dataset.value.text,
                },
              ],
            });
      }),
    );
  };
  const perLang = (template: MessageTemplate) =>
    v.optional(v.object({ en: v.optional(wording(template)), ar: v.optional(wording(template)) }));
  return v.object(
    Object.fromEntries(MESSAGE_TEMPLATES.map((t) => [t, perLang(t)])) as Record<
      MessageTemplate,
      ReturnType<typeof perLang>
    >,
  );
}
