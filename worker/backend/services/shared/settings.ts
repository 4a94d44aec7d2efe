import {
  MESSAGE_TEMPLATES,
  messagesSchema,
  placeholdersOf,
  settingsSchemas,
  SETTINGS_SECTIONS,
  type ConsoleSettings,
  type MessageTemplate,
  type MessageWording,
  type SettingsMessages,
  type SettingsSection,
  type SettingsValues,
  type ShippingRates,
  type StoreIdentity,
  zoneOfCity,
} from "../../../../contract/settings";
import { REGIONS } from "../../../../contract/regions";
import { defaultHolidays } from "../../../../contract/delivery-promise";
import type { Env, Lang, StaffCaller } from "../../env";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { forgetCatalogueVersion, bumpCatalogueVersion } from "../../cache";
import { auditStatement } from "../console/audit-log";
import { msg } from "../../messages";

/**
 * The store's settings (contract/settings.ts): one D1 row per section in `store_settings`
 * (migration 0033), edited by owners in the console and read by checkout, tax documents, returns
 * and order messages.
 *
 * Precedence: a section saved from the console wins whole; a section never saved reads its
 * defaults, which are the deployment's variables where one configured it before (VAT_RATE,
 * SHIPPING_FLAT, SHIPPING_EXPRESS, FREE_SHIPPING_THRESHOLD, RETURN_WINDOW_DAYS, SELLER_*), then
 * the built-in values. So a deployment keeps its behaviour until an owner saves the page.
 *
 * Freshness: every use reads the small table from D1 (one indexed query of a few rows), so a save
 * shows in the next request of every isolate, without a deploy and without waiting for a cache to
 * expire. What is kept per isolate is the parsed value of each row, by its version.
 */

/** A number from a variable, or the fallback when it is unset or out of range. */
export function numberVar(raw: string | undefined, fallback: number, valid: (n: number) => boolean): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && valid(n) ? n : fallback;
}

/** The store's name until the owner names it: the storefront's own `app.name` says the same. */
const STORE_NAME = msg("settings.storeName");

/** The settings a shop starts from: its deployment's variables, else the built-in values. */
export function settingsDefaults(env: Partial<Env>): SettingsValues {
  const sellerEn = env.SELLER_NAME_EN?.trim() ?? "";
  const addressEn = env.SELLER_ADDRESS_EN?.trim() ?? "";
  return {
    shipping: {
      standard: Math.round(numberVar(env.SHIPPING_FLAT, 2500, (n) => n >= 0)),
      express: Math.round(numberVar(env.SHIPPING_EXPRESS, 5000, (n) => n >= 0)),
      free_threshold: Math.round(numberVar(env.FREE_SHIPPING_THRESHOLD, 30000, (n) => n >= 0)),
      zones: [],
    },
    tax: { vat_rate: numberVar(env.VAT_RATE, 0.15, (n) => n >= 0 && n < 1) },
    seller: {
      name_en: sellerEn,
      name_ar: env.SELLER_NAME_AR?.trim() || sellerEn,
      vat_number: env.SELLER_VAT_NUMBER?.trim() ?? "",
      address_en: addressEn,
      address_ar: env.SELLER_ADDRESS_AR?.trim() || addressEn,
    },
    // The name the shop's header shows until the owner names the store.
    store: { name_en: STORE_NAME.en, name_ar: STORE_NAME.ar, logo_url: "" },
    returns: { window_days: numberVar(env.RETURN_WINDOW_DAYS, 14, (n) => n >= 0 && n <= 365) },
    // Cash on delivery until the owner sets it: a 15-riyal fee, orders up to 5,000 riyals, 30 minutes to confirm.
    cod: { fee: 1500, max_total: 500_000, confirm_minutes: 30 },
    // Every parcel with the local courier until the owner sets carriers by region and weight.
    carriers: {
      default: "courier",
      rules: [],
      label_size: "a6",
      ship_from: {
        name: sellerEn,
        // Demo values, as the seller's: the owner sets the warehouse in Settings → Carriers.
        phone: "+966110000000",
        line1: addressEn,
        district: "",
        city: "Riyadh",
        postal_code: "",
        short_address: "",
      },
    },
    // The delivery promise until the owner sets it: orders before 14:00 Riyadh time leave the same
    // working day; three working days to the door, one within Riyadh; this year's and next
    // year's official holidays (contract/delivery-promise.ts SAUDI_HOLIDAYS says where they come from).
    delivery: {
      cutoff: "14:00",
      lead_days: 3,
      zones: [],
      cities: [{ city: "Riyadh", days: 1 }],
      holidays: defaultHolidays(),
      hijri: false,
    },
    messages: {},
    // Only staff answer product questions until the owner lets buyers answer too.
    questions: { buyers_answer: false },
    // Reviews until the owner sets them: clean reviews published at once, flagged ones held;
    // links and contact details flagged; buyers invited a week after delivery.
    reviews: { publish: "clean", screen_links: true, screen_contacts: true, blocked_words: [], invitation_days: 7 },
    // Cart reminders on from the start: they only ever reach a shopper who asked for them. The
    // first three hours after the cart was left, the second a day after; nothing from 22:00 to 09:00.
    cart_reminders: {
      enabled: true,
      first_delay_hours: 3,
      second_delay_hours: 24,
      quiet_start: 22,
      quiet_end: 9,
      promo_code: "",
    },
  };
}

interface SettingsRow {
  key: string;
  value: string;
  version: number;
  updated_at: string;
  updated_by: string | null;
}

/** Parsed section values by key and version: a row is parsed once per isolate, not per request. */
const parsed = new Map<string, unknown>();
// No copy of the rows is kept between uses: the cron and queue consumers share one D1 binding for
// the isolate's life, so a kept copy there would never see a save. The table is a few rows.
async function rowsOf(db: D1Database): Promise<SettingsRow[]> {
  const { results } = await db
    .prepare("SELECT key, value, version, updated_at, updated_by FROM store_settings")
    .all<SettingsRow>();
  return results;
}

function valueOf(row: SettingsRow): unknown {
  const key = `${row.key}:${row.version}:${row.updated_at}`;
  if (!parsed.has(key)) parsed.set(key, JSON.parse(row.value));
  return parsed.get(key);
}

/**
 * A saved section as the current shape reads it. Shipping saved before zones existed holds the
 * rates alone: those are the rest of the country's, and the shop has no zones.
 */
function current(key: string, value: unknown): unknown {
  if (key === "shipping" && value && typeof value === "object" && !Array.isArray((value as { zones?: unknown }).zones))
    return { ...value, zones: [] };
  return value;
}

/** The settings in force: each saved section over its defaults. */
export async function loadSettings(env: Pick<Env, "DB"> & Partial<Env>): Promise<SettingsValues> {
  const values = settingsDefaults(env);
  for (const row of await rowsOf(env.DB)) {
    if ((SETTINGS_SECTIONS as readonly string[]).includes(row.key))
      (values as unknown as Record<string, unknown>)[row.key] = current(row.key, valueOf(row));
  }
  return values;
}

/** GET /backend/store: the store's name in `lang` and its logo (contract/settings.ts). */
export async function storeIdentity(env: Pick<Env, "DB"> & Partial<Env>, lang: Lang): Promise<StoreIdentity> {
  const { store } = await loadSettings(env);
  return { name: lang === "ar" ? store.name_ar : store.name_en, logo_url: store.logo_url };
}

/** The catalogue's wording of every order message (services/messages/mail.ts renders them). */
export function messageDefaults(): Record<MessageTemplate, Record<Lang, MessageWording>> {
  const pick = (lang: Lang, t: MessageTemplate) => ({
    subject: msg(`mail.order.${t}.subject`)[lang],
    text: msg(`mail.order.${t}.text`)[lang],
  });
  return Object.fromEntries(MESSAGE_TEMPLATES.map((t) => [t, { en: pick("en", t), ar: pick("ar", t) }])) as Record<
    MessageTemplate,
    Record<Lang, MessageWording>
  >;
}

/** The variables each message may use: those its wording in the catalogue uses, and the order's number and total. */
export function messageVariables(): Record<MessageTemplate, string[]> {
  const defaults = messageDefaults();
  return Object.fromEntries(
    MESSAGE_TEMPLATES.map((t) => {
      const used = [defaults[t].en, defaults[t].ar].flatMap((w) => [
        ...placeholdersOf(w.subject),
        ...placeholdersOf(w.text),
      ]);
      return [t, [...new Set(["number", "total", ...used])]];
    }),
  ) as Record<MessageTemplate, string[]>;
}

/** The owner's wording of a message in a language, or null to use the catalogue's. */
export function messageWording(settings: SettingsValues, template: MessageTemplate, lang: Lang): MessageWording | null {
  const wording = settings.messages[template]?.[lang];
  return wording && wording.subject && wording.text ? wording : null;
}

/** GET /admin/settings. */
export async function consoleSettings(env: Pick<Env, "DB"> & Partial<Env>): Promise<ConsoleSettings> {
  const rows = await rowsOf(env.DB);
  return {
    values: await loadSettings(env),
    message_defaults: messageDefaults(),
    message_variables: messageVariables(),
    saved: Object.fromEntries(
      rows.filter((r) => r.updated_by).map((r) => [r.key, { at: r.updated_at, by: r.updated_by! }]),
    ),
  };
}

const FIELD_NAMES: Record<string, Bilingual> = {
  standard: msg("settings.fieldNames.standard"),
  express: msg("settings.fieldNames.express"),
  free_threshold: msg("settings.fieldNames.freeThreshold"),
  vat_rate: msg("settings.fieldNames.vatRate"),
  name_en: msg("settings.fieldNames.nameEn"),
  name_ar: msg("settings.fieldNames.nameAr"),
  vat_number: msg("settings.fieldNames.vatNumber"),
  address_en: msg("settings.fieldNames.addressEn"),
  address_ar: msg("settings.fieldNames.addressAr"),
  logo_url: msg("settings.fieldNames.logoUrl"),
  window_days: msg("settings.fieldNames.windowDays"),
  subject: msg("settings.fieldNames.subject"),
  text: msg("settings.fieldNames.text"),
  regions: msg("settings.fieldNames.regions"),
  zones: msg("settings.fieldNames.zones"),
  cutoff: msg("settings.fieldNames.cutoff"),
  lead_days: msg("settings.fieldNames.leadDays"),
  zone: msg("settings.fieldNames.zone"),
  city: msg("settings.fieldNames.city"),
  cities: msg("settings.fieldNames.cities"),
  holidays: msg("settings.fieldNames.holidays"),
  hijri: msg("settings.fieldNames.hijri"),
  buyers_answer: msg("settings.fieldNames.buyersAnswer"),
  publish: msg("reviews.settingsFields.publish"),
  screen_links: msg("reviews.settingsFields.screenLinks"),
  screen_contacts: msg("reviews.settingsFields.screenContacts"),
  blocked_words: msg("reviews.settingsFields.blockedWords"),
  invitation_days: msg("reviews.settingsFields.invitationDays"),
  enabled: msg("cartReminders.settingsFields.enabled"),
  first_delay_hours: msg("cartReminders.settingsFields.firstDelayHours"),
  second_delay_hours: msg("cartReminders.settingsFields.secondDelayHours"),
  quiet_start: msg("cartReminders.settingsFields.quietStart"),
  quiet_end: msg("cartReminders.settingsFields.quietEnd"),
  promo_code: msg("cartReminders.settingsFields.promoCode"),
};

const cache = new Map<Lang, SettingsMessages>();

/** The schemas' refusals in the caller's language. */
export function settingsMessages(lang: Lang): SettingsMessages {
  let m = cache.get(lang);
  if (m) return m;
  const name = (field: string) => say(lang, FIELD_NAMES[field] ?? { en: field, ar: field });
  m = {
    required: (f) => say(lang, msg("settings.required"), { name: name(f).toLowerCase() }),
    invalid: (f) => say(lang, msg("settings.invalid"), { name: name(f) }),
    tooLong: (f, max) => say(lang, msg("settings.tooLong"), { name: name(f), max }),
    range: (f, min, max) => say(lang, msg("settings.outOfRange"), { name: name(f), min, max }),
    vatNumber: say(lang, msg("settings.vatNumber")),
    logoUrl: say(lang, msg("settings.logoUrl")),
    linkInText: say(lang, msg("settings.linkInText")),
    unknownVariable: (v) => say(lang, msg("settings.unknownVariable"), { v }),
    missingLink: (v) => say(lang, msg("settings.linkRequired"), { v }),
    noRegions: say(lang, msg("settings.noRegions")),
    regionTaken: (region, zone) =>
      say(lang, msg("settings.regionTaken"), {
        region: REGIONS[region][lang],
        zone: lang === "ar" ? zone.name_ar : zone.name_en,
      }),
    cutoff: say(lang, msg("settings.cutoff")),
    holiday: (day) => say(lang, msg("settings.holiday"), { day }),
    secondAfterFirst: say(lang, msg("cartReminders.secondAfterFirst")),
  };
  cache.set(lang, m);
  return m;
}

/** The schema of one section, in the caller's language. */
export function sectionSchema(section: SettingsSection, lang: Lang) {
  const m = settingsMessages(lang);
  return section === "messages" ? messagesSchema(m, messageVariables()) : settingsSchemas(m)[section];
}

/**
 * Saves one section (already checked by its schema) with its audit line (before and after) in one
 * batch. Saving the seller first writes the seller in force into the documents that kept none, so
 * documents already issued keep the seller they were issued under. Saving the store's name or logo
 * bumps the catalogue version in the same batch: every page and public answer that shows them is
 * kept under that version (worker/backend/cache.ts, worker/page-cache.ts), so the next render
 * shows the new ones.
 */
export async function saveSettingsSection(
  env: Pick<Env, "DB"> & Partial<Env>,
  staff: Pick<StaffCaller, "user_id" | "email">,
  section: SettingsSection,
  value: SettingsValues[SettingsSection],
): Promise<void> {
  const db = env.DB;
  const before = (await loadSettings(env))[section];
  await db.batch([
    ...(section === "seller"
      ? [db.prepare("UPDATE tax_documents SET seller = ? WHERE seller IS NULL").bind(JSON.stringify(before))]
      : []),
    db
      .prepare(
        `INSERT INTO store_settings (key, value, updated_by) VALUES (?1, ?2, ?3)
         ON CONFLICT (key) DO UPDATE SET value = ?2, updated_by = ?3, version = version + 1,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
      )
      .bind(section, JSON.stringify(value), staff.email),
    auditStatement(db, staff, "settings.update", "settings", section, before, value),
    ...(section === "store" ? [bumpCatalogueVersion(db)] : []),
  ]);
  // This isolate's public answers follow the new version at once, not within the second.
  if (section === "store") forgetCatalogueVersion();
}

/** For a tax document: the seller kept with it, or the one in force for documents that kept none. */
export async function sellerSettingsOf(
  env: Pick<Env, "DB"> & Partial<Env>,
  kept: string | null | undefined,
): Promise<SettingsValues["seller"]> {
  if (kept) return JSON.parse(kept) as SettingsValues["seller"];
  return (await loadSettings(env)).seller;
}

export interface CommerceSettings {
  vatRate: number;
  shippingFlat: number;
  freeShippingThreshold: number;
  shippingExpress: number;
  reservationMinutes: number;
  /** Days after delivery a shopper may ask for a return. */
  returnWindowDays: number;
  /** Days a guest's cart lives unchanged before the cron expires it. */
  guestCartDays: number;
  /** Cash on delivery: its fee and largest total in halalas (0: off), and the minutes to confirm it. */
  cod: { fee: number; maxTotal: number; confirmMinutes: number };
}

/** The rates of the zone the city is in, else the rest of the country's. */
const ratesFor = (store: SettingsValues, city: string | null | undefined): ShippingRates =>
  zoneOfCity(store.shipping, city) ?? store.shipping;

/** The money rules of a store's settings, with the rates of the city's zone. */
export const commerceOf = (env: Partial<Env>, store: SettingsValues, city?: string | null): CommerceSettings => {
  const rates = ratesFor(store, city);
  return {
    vatRate: store.tax.vat_rate,
    shippingFlat: rates.standard,
    freeShippingThreshold: rates.free_threshold,
    shippingExpress: rates.express,
    reservationMinutes: numberVar(env.RESERVATION_MINUTES, 30, (n) => n > 0 && n <= 24 * 60),
    returnWindowDays: store.returns.window_days,
    guestCartDays: numberVar(env.GUEST_CART_DAYS, 30, (n) => n > 0 && n <= 365),
    cod: { fee: store.cod.fee, maxTotal: store.cod.max_total, confirmMinutes: store.cod.confirm_minutes },
  };
};

/**
 * The shop's money rules as the deployment configures them, before any console change
 * (services/shared/settings.ts `settingsDefaults`): for what is not a store setting (the stock hold, the
 * guest cart's life) and for tests. What a shopper is charged comes from `currentCommerceSettings`.
 */
export function commerceSettings(env: Partial<Env>): CommerceSettings {
  return commerceOf(env, settingsDefaults(env));
}

/**
 * The money rules in force now: the store's settings as last saved in the console, over the
 * defaults, with the shipping rates of the delivery city's zone (the rest of the country's when
 * no city is given or no zone covers it).
 */
export async function currentCommerceSettings(
  env: Partial<Env>,
  db: D1Database,
  city?: string | null,
): Promise<CommerceSettings> {
  return commerceOf(env, await loadSettings({ ...env, DB: db }), city);
}
