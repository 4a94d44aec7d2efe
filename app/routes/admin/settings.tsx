import type { Route } from "./+types/settings";
import { latinDigits } from "../../../contract/inputs";
import { formatMinorUnits, readMoney } from "../../../contract/numbers";
import { CUTOFF_PATTERN, isIsoDay } from "../../../contract/delivery-promise";
import {
  isLinkVariable,
  LINK_LIKE,
  LOGO_URL_PATTERN,
  MESSAGE_TEMPLATES,
  REVIEW_PUBLISH_RULES,
  SETTINGS_LIMITS,
  SETTINGS_SECTIONS,
  VAT_NUMBER_PATTERN,
  type ConsoleSettings,
  type MessagesSettings,
  type MessageTemplate,
  type SettingsSection,
} from "../../../contract/settings";
import { SettingsForm, formName, type SettingsField, type SettingsRow } from "../../components/console/SettingsForm";
import { ShippingZonesForm } from "../../components/console/ShippingZonesForm";
import { CarriersForm } from "../../components/console/CarriersForm";
import { getStoreSettings, saveStoreSettings } from "../../lib/api/console-settings";
import { ApiError } from "../../lib/api/errors";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { useT } from "../../lib/use-locale";
import type { Locale } from "../../lib/locales";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.settings");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api) => (await getStoreSettings(api)).data, { role: "owner" });
}

const LANGS: Locale[] = ["en", "ar"];

/** A percentage as typed ("15", "12.5", "١٥"), or null. */
function parsePercent(text: string): number | null {
  const latin = latinDigits(text.trim()).replace(/\u066B/g, ".");
  return /^\d{1,2}(\.\d{1,2})?$/.test(latin) ? Number(latin) : null;
}

/** A whole number (of minutes) as typed, or null. */
function parseWhole(text: string): number | null {
  const latin = latinDigits(text.trim());
  return /^\d{1,4}$/.test(latin) ? Number(latin) : null;
}

/** Riyals as typed ("15", "٢٥٫٥"), in halalas; -1 (refused by the API with its message) when unreadable. */
function halalasOf(text: string | undefined): number {
  const read = readMoney(text ?? "", { min: 0 });
  return read.ok ? read.value : -1;
}

/** A whole number of days as typed, or null. */
function parseDays(text: string): number | null {
  const latin = latinDigits(text.trim());
  return /^\d{1,3}$/.test(latin) ? Number(latin) : null;
}

/** Whole working days as typed (0 to the limit), or null. */
function leadDays(text: string): number | null {
  const latin = latinDigits(text.trim());
  return /^\d{1,2}$/.test(latin) && Number(latin) <= SETTINGS_LIMITS.leadDaysMax ? Number(latin) : null;
}

/** "City: days" lines as the API takes them, or null when a line does not read so. */
function parseCities(text: string): { city: string; days: number }[] | null {
  const out: { city: string; days: number }[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line) continue;
    const match = /^(.+?)\s*[:：]\s*(\S+)$/.exec(line);
    const days = match ? leadDays(match[2]!) : null;
    if (!match || days === null || match[1]!.length > SETTINGS_LIMITS.city) return null;
    out.push({ city: match[1]!.trim(), days });
  }
  return out;
}

/** One YYYY-MM-DD a line (commas too), or null when one is not a calendar day. */
function parseHolidays(text: string): string[] | null {
  const days = latinDigits(text)
    .split(/[\n,]+/)
    .map((d) => d.trim())
    .filter(Boolean);
  return days.every(isIsoDay) ? days : null;
}

/**
 * The store's settings (owners): shipping, VAT, the seller, the store, returns, cash on delivery,
 * carriers, the delivery promise, order messages, and who answers product questions.
 */
export default function ConsoleSettingsPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const settings: ConsoleSettings = loaderData;
  const { values } = settings;
  const f = (name: string, extra: Partial<SettingsField> = {}): SettingsField => ({
    name,
    label: t(`console.settings.fields.${name}`),
    ...extra,
  });
  const bilingual = (base: string, max: number, required: boolean): SettingsField[] =>
    LANGS.map((lang) => f(`${base}_${lang}`, { required, max, lang, dir: lang === "ar" ? "rtl" : "ltr" }));
  const sections = SETTINGS_SECTIONS.map((key) => ({ key, title: t(`console.settings.sections.${key}`) }));
  // By name, not by position: a section added in the middle must not take another's title.
  const titleOf = (key: SettingsSection) => t(`console.settings.sections.${key}`);

  const messageRows: SettingsRow[] = MESSAGE_TEMPLATES.map((template) => {
    const variables = settings.message_variables[template];
    const links = variables.filter(isLinkVariable);
    const listed = t("console.settings.messages.variables", { list: variables.map((v) => `{{${v}}}`).join(" ") });
    const hint = links.length ? `${listed} ${t("console.settings.messages.keepLinks")}` : listed;
    const noLink = (v: string) => (LINK_LIKE.test(v) ? t("console.settings.errors.link") : "");
    const keepsLinks = (v: string) =>
      links
        .filter((l) => v !== "" && !v.includes(`{{${l}}}`))
        .map((l) => t("console.settings.errors.missingLink", { name: `{{${l}}}` }))[0] ?? "";
    const own = (lang: Locale) => ({ lang, dir: lang === "ar" ? ("rtl" as const) : ("ltr" as const) });
    // Subjects side by side, then texts side by side: each language in its own column.
    return {
      heading: t(`console.settings.messages.${template}`),
      layout: "bilingual",
      fields: [
        ...LANGS.map((lang) =>
          f(`${template}.${lang}.subject`, {
            ...own(lang),
            label: t(`console.settings.messages.subject.${lang}`),
            max: SETTINGS_LIMITS.subject,
            check: noLink,
          }),
        ),
        ...LANGS.map((lang) =>
          f(`${template}.${lang}.text`, {
            ...own(lang),
            label: t(`console.settings.messages.text.${lang}`),
            multiline: true,
            max: SETTINGS_LIMITS.text,
            hint,
            check: (v) => noLink(v) || keepsLinks(v),
          }),
        ),
      ],
    };
  });

  // The delivery section: a lead time per shipping zone, by the zone's English name.
  const zoneNames = values.shipping.zones.map((z) => z.name_en);
  const leadDaysError = t("console.settings.errors.leadDays", { max: SETTINGS_LIMITS.leadDaysMax });

  // A section's form starts again from what was saved (typed "٢٥٫٥" reads back "25.50").
  const version = (section: keyof ConsoleSettings["values"]) =>
    `${section}:${settings.saved[section]?.at ?? "defaults"}`;

  const wordingOf = (template: MessageTemplate, lang: Locale) =>
    values.messages[template]?.[lang] ?? settings.message_defaults[template][lang];

  return (
    <>
      <h1>{t("console.settings.title")}</h1>
      <p className="console-hint">{t("console.settings.intro")}</p>
      <nav aria-label={t("console.settings.sectionsLabel")} className="settings-index">
        <ul>
          {sections.map((s) => (
            <li key={s.key}>
              <a href={`#settings-${s.key}-title`}>{s.title}</a>
            </li>
          ))}
        </ul>
      </nav>

      <ShippingZonesForm key={version("shipping")} title={titleOf("shipping")} shipping={values.shipping} />

      <SettingsForm
        key={version("tax")}
        id="settings-tax"
        title={titleOf("tax")}
        intro={t("console.settings.taxIntro")}
        rows={[
          {
            layout: "grid",
            fields: [
              f("vat_rate", {
                required: true,
                dir: "ltr",
                inputMode: "decimal",
                check: (v) => (parsePercent(v) === null ? t("console.settings.errors.percent") : ""),
              }),
            ],
          },
        ]}
        initial={{ vat_rate: String(Math.round(values.tax.vat_rate * 10_000) / 100) }}
        toInput={(v) => ({ vat_rate: Math.round((parsePercent(v.vat_rate) ?? -1) * 100) / 10_000 })}
        save={(api, input) => saveStoreSettings(api, "tax", input)}
      />

      <SettingsForm
        key={version("seller")}
        id="settings-seller"
        title={titleOf("seller")}
        intro={t("console.settings.sellerIntro")}
        rows={[
          { layout: "bilingual", fields: bilingual("name", SETTINGS_LIMITS.name, true) },
          {
            layout: "grid",
            fields: [
              f("vat_number", {
                required: true,
                dir: "ltr",
                inputMode: "numeric",
                hint: t("console.settings.vatNumberHint"),
                check: (v) => (VAT_NUMBER_PATTERN.test(latinDigits(v)) ? "" : t("console.settings.errors.vatNumber")),
              }),
            ],
          },
          {
            layout: "bilingual",
            fields: bilingual("address", SETTINGS_LIMITS.address, false).map((x) => ({ ...x, multiline: true })),
          },
        ]}
        initial={{ ...values.seller }}
        toInput={(v) => ({
          name_en: v.name_en ?? "",
          name_ar: v.name_ar ?? "",
          vat_number: latinDigits((v.vat_number ?? "").trim()),
          address_en: v.address_en ?? "",
          address_ar: v.address_ar ?? "",
        })}
        save={(api, input) => saveStoreSettings(api, "seller", input)}
      />

      <SettingsForm
        key={version("store")}
        id="settings-store"
        title={titleOf("store")}
        intro={t("console.settings.storeIntro")}
        rows={[
          { layout: "bilingual", fields: bilingual("store_name", SETTINGS_LIMITS.name, true) },
          {
            layout: "grid",
            fields: [
              f("logo_url", {
                dir: "ltr",
                max: SETTINGS_LIMITS.logoUrl,
                hint: t("console.settings.logoHint"),
                check: (v) => (v === "" || LOGO_URL_PATTERN.test(v) ? "" : t("console.settings.errors.logoUrl")),
              }),
            ],
          },
        ]}
        initial={{
          store_name_en: values.store.name_en,
          store_name_ar: values.store.name_ar,
          logo_url: values.store.logo_url,
        }}
        toInput={(v) => ({
          name_en: v.store_name_en ?? "",
          name_ar: v.store_name_ar ?? "",
          logo_url: (v.logo_url ?? "").trim(),
        })}
        save={async (api, input) => {
          try {
            return await saveStoreSettings(api, "store", input);
          } catch (error) {
            throw renameErrors(error, { name_en: "store_name_en", name_ar: "store_name_ar" });
          }
        }}
      />

      <SettingsForm
        key={version("returns")}
        id="settings-returns"
        title={titleOf("returns")}
        rows={[
          {
            layout: "grid",
            fields: [
              f("window_days", {
                required: true,
                dir: "ltr",
                inputMode: "numeric",
                hint: t("console.settings.windowHint"),
                check: (v) => {
                  const days = parseDays(v);
                  return days === null || days > SETTINGS_LIMITS.windowDaysMax
                    ? t("console.settings.errors.days", { max: SETTINGS_LIMITS.windowDaysMax })
                    : "";
                },
              }),
            ],
          },
        ]}
        initial={{ window_days: String(values.returns.window_days) }}
        toInput={(v) => ({ window_days: parseDays(v.window_days) ?? -1 })}
        save={(api, input) => saveStoreSettings(api, "returns", input)}
      />

      <SettingsForm
        key={version("cod")}
        id="settings-cod"
        title={titleOf("cod")}
        intro={t("console.settings.codIntro")}
        rows={[
          {
            layout: "grid",
            fields: [
              f("fee", {
                required: true,
                dir: "ltr",
                inputMode: "decimal",
                hint: t("console.settings.riyalsHint"),
                check: (v) =>
                  readMoney(v, { min: 0, max: SETTINGS_LIMITS.codFeeMax }).ok
                    ? ""
                    : t("console.settings.errors.riyals"),
              }),
              f("max_total", {
                required: true,
                dir: "ltr",
                inputMode: "decimal",
                hint: t("console.settings.riyalsHint"),
                check: (v) =>
                  readMoney(v, { min: 0, max: SETTINGS_LIMITS.thresholdMax }).ok
                    ? ""
                    : t("console.settings.errors.riyals"),
              }),
              f("confirm_minutes", {
                required: true,
                dir: "ltr",
                inputMode: "numeric",
                check: (v) => {
                  const minutes = parseWhole(v);
                  return minutes === null ||
                    minutes < SETTINGS_LIMITS.confirmMinutesMin ||
                    minutes > SETTINGS_LIMITS.confirmMinutesMax
                    ? t("console.settings.errors.minutes", {
                        min: SETTINGS_LIMITS.confirmMinutesMin,
                        max: SETTINGS_LIMITS.confirmMinutesMax,
                      })
                    : "";
                },
              }),
            ],
          },
        ]}
        initial={{
          fee: formatMinorUnits(values.cod.fee),
          max_total: formatMinorUnits(values.cod.max_total),
          confirm_minutes: String(values.cod.confirm_minutes),
        }}
        toInput={(v) => ({
          fee: halalasOf(v.fee),
          max_total: halalasOf(v.max_total),
          confirm_minutes: parseWhole(v.confirm_minutes ?? "") ?? -1,
        })}
        save={(api, input) => saveStoreSettings(api, "cod", input)}
      />

      <CarriersForm key={version("carriers")} title={titleOf("carriers")} carriers={values.carriers} />

      <SettingsForm
        key={version("delivery")}
        id="settings-delivery"
        title={titleOf("delivery")}
        intro={t("console.settings.deliveryIntro")}
        rows={[
          {
            layout: "grid",
            fields: [
              f("cutoff", {
                required: true,
                dir: "ltr",
                check: (v) => (CUTOFF_PATTERN.test(latinDigits(v)) ? "" : t("console.settings.errors.cutoff")),
              }),
              f("lead_days", {
                required: true,
                dir: "ltr",
                inputMode: "numeric",
                check: (v) => (leadDays(v) === null ? leadDaysError : ""),
              }),
              ...zoneNames.map((zone, i) =>
                f(`zone_days_${i}`, {
                  label: t("console.settings.fields.zone_days", { zone }),
                  dir: "ltr",
                  inputMode: "numeric",
                  hint: t("console.settings.zoneDaysHint"),
                  check: (v) => (v === "" || leadDays(v) !== null ? "" : leadDaysError),
                }),
              ),
              f("hijri", {
                options: [
                  { value: "off", label: t("console.settings.hijriOff") },
                  { value: "on", label: t("console.settings.hijriOn") },
                ],
              }),
            ],
          },
          {
            layout: "grid",
            fields: [
              f("cities", {
                multiline: true,
                hint: t("console.settings.citiesHint"),
                check: (v) =>
                  parseCities(v) === null
                    ? t("console.settings.errors.cities", { max: SETTINGS_LIMITS.leadDaysMax })
                    : "",
              }),
              f("holidays", {
                multiline: true,
                dir: "ltr",
                hint: t("console.settings.holidaysHint"),
                check: (v) => (parseHolidays(v) === null ? t("console.settings.errors.holidays") : ""),
              }),
            ],
          },
        ]}
        initial={{
          cutoff: values.delivery.cutoff,
          lead_days: String(values.delivery.lead_days),
          ...Object.fromEntries(
            zoneNames.map((zone, i) => [
              `zone_days_${i}`,
              String(values.delivery.zones.find((z) => z.zone === zone)?.days ?? ""),
            ]),
          ),
          hijri: values.delivery.hijri ? "on" : "off",
          cities: values.delivery.cities.map((c) => `${c.city}: ${c.days}`).join("\n"),
          holidays: values.delivery.holidays.join("\n"),
        }}
        toInput={(v) => ({
          cutoff: latinDigits((v.cutoff ?? "").trim()),
          lead_days: leadDays(v.lead_days ?? "") ?? -1,
          zones: zoneNames.flatMap((zone, i) => {
            const days = leadDays(v[`zone_days_${i}`] ?? "");
            return days === null ? [] : [{ zone, days }];
          }),
          cities: parseCities(v.cities ?? "") ?? [],
          holidays: parseHolidays(v.holidays ?? "") ?? [],
          hijri: v.hijri === "on",
        })}
        save={(api, input) => saveStoreSettings(api, "delivery", input)}
      />

      <SettingsForm
        key={version("messages")}
        id="settings-messages"
        title={titleOf("messages")}
        intro={t("console.settings.messagesIntro")}
        rows={messageRows}
        initial={Object.fromEntries(
          MESSAGE_TEMPLATES.flatMap((template) =>
            LANGS.flatMap((lang) => {
              const wording = wordingOf(template, lang);
              return [
                [formName(`${template}.${lang}.subject`), wording.subject],
                [formName(`${template}.${lang}.text`), wording.text],
              ];
            }),
          ),
        )}
        toInput={(v) => messagesInput(v, settings)}
        save={(api, input) => saveStoreSettings(api, "messages", input)}
      />

      <SettingsForm
        key={version("questions")}
        id="settings-questions"
        title={titleOf("questions")}
        intro={t("console.settings.questionsIntro")}
        rows={[
          {
            layout: "grid",
            fields: [
              f("buyers_answer", {
                options: [
                  { value: "off", label: t("console.settings.buyersAnswerOff") },
                  { value: "on", label: t("console.settings.buyersAnswerOn") },
                ],
              }),
            ],
          },
        ]}
        initial={{ buyers_answer: values.questions.buyers_answer ? "on" : "off" }}
        toInput={(v) => ({ buyers_answer: v.buyers_answer === "on" })}
        save={(api, input) => saveStoreSettings(api, "questions", input)}
      />

      <SettingsForm
        key={version("reviews")}
        id="settings-reviews"
        title={titleOf("reviews")}
        intro={t("console.reviews.settings.intro")}
        rows={[
          {
            layout: "grid",
            fields: [
              f("publish", {
                label: t("console.reviews.settings.publish"),
                hint: t("console.reviews.settings.publishHint"),
                options: REVIEW_PUBLISH_RULES.map((rule) => ({
                  value: rule,
                  label: t(`console.reviews.settings.publishRules.${rule}`),
                })),
              }),
              ...(["screen_links", "screen_contacts"] as const).map((name) =>
                f(name, {
                  label: t(`console.reviews.settings.${name}`),
                  options: [
                    { value: "on", label: t("console.reviews.settings.on") },
                    { value: "off", label: t("console.reviews.settings.off") },
                  ],
                }),
              ),
              f("invitation_days", {
                label: t("console.reviews.settings.invitation_days"),
                hint: t("console.reviews.settings.invitationHint"),
                required: true,
                dir: "ltr",
                inputMode: "numeric",
                check: (v) => {
                  const days = parseDays(v);
                  return days === null || days > SETTINGS_LIMITS.invitationDaysMax
                    ? t("console.settings.errors.days", { max: SETTINGS_LIMITS.invitationDaysMax })
                    : "";
                },
              }),
            ],
          },
          {
            layout: "grid",
            fields: [
              f("blocked_words", {
                label: t("console.reviews.settings.blocked_words"),
                hint: t("console.reviews.settings.blockedHint", { max: SETTINGS_LIMITS.blockedWordsMax }),
                multiline: true,
                check: (v) =>
                  blockedWords(v).some((w) => w.length > SETTINGS_LIMITS.blockedWord)
                    ? t("console.reviews.settings.wordTooLong", { max: SETTINGS_LIMITS.blockedWord })
                    : "",
              }),
            ],
          },
        ]}
        initial={{
          publish: values.reviews.publish,
          screen_links: values.reviews.screen_links ? "on" : "off",
          screen_contacts: values.reviews.screen_contacts ? "on" : "off",
          invitation_days: String(values.reviews.invitation_days),
          blocked_words: values.reviews.blocked_words.join("\n"),
        }}
        toInput={(v) => ({
          publish: REVIEW_PUBLISH_RULES.find((rule) => rule === v.publish) ?? "hold",
          screen_links: v.screen_links === "on",
          screen_contacts: v.screen_contacts === "on",
          blocked_words: blockedWords(v.blocked_words ?? ""),
          invitation_days: parseDays(v.invitation_days ?? "") ?? -1,
        })}
        save={(api, input) => saveStoreSettings(api, "reviews", input)}
      />

      <SettingsForm
        key={version("cart_reminders")}
        id="settings-cart-reminders"
        title={titleOf("cart_reminders")}
        intro={t("cartReminders.settings.intro")}
        rows={[
          {
            layout: "grid",
            fields: [
              f("enabled", {
                label: t("cartReminders.settings.enabled"),
                options: [
                  { value: "on", label: t("cartReminders.settings.on") },
                  { value: "off", label: t("cartReminders.settings.off") },
                ],
              }),
              f("first_delay_hours", {
                label: t("cartReminders.settings.first_delay_hours"),
                hint: t("cartReminders.settings.firstHint"),
                required: true,
                dir: "ltr",
                inputMode: "numeric",
                check: hoursCheck(t, 1, SETTINGS_LIMITS.reminderFirstHoursMax),
              }),
              f("second_delay_hours", {
                label: t("cartReminders.settings.second_delay_hours"),
                hint: t("cartReminders.settings.secondHint"),
                required: true,
                dir: "ltr",
                inputMode: "numeric",
                check: hoursCheck(t, 0, SETTINGS_LIMITS.reminderSecondHoursMax),
              }),
            ],
          },
          {
            layout: "grid",
            fields: [
              ...(["quiet_start", "quiet_end"] as const).map((name) =>
                f(name, {
                  label: t(`cartReminders.settings.${name}`),
                  hint: t("cartReminders.settings.quietHint"),
                  required: true,
                  dir: "ltr",
                  inputMode: "numeric",
                  check: hoursCheck(t, 0, 23),
                }),
              ),
              f("promo_code", {
                label: t("cartReminders.settings.promo_code"),
                hint: t("cartReminders.settings.promoHint"),
                dir: "ltr",
                max: SETTINGS_LIMITS.promoCode,
              }),
            ],
          },
        ]}
        initial={{
          enabled: values.cart_reminders.enabled ? "on" : "off",
          first_delay_hours: String(values.cart_reminders.first_delay_hours),
          second_delay_hours: String(values.cart_reminders.second_delay_hours),
          quiet_start: String(values.cart_reminders.quiet_start),
          quiet_end: String(values.cart_reminders.quiet_end),
          promo_code: values.cart_reminders.promo_code,
        }}
        toInput={(v) => ({
          enabled: v.enabled === "on",
          first_delay_hours: parseDays(v.first_delay_hours ?? "") ?? -1,
          second_delay_hours: parseDays(v.second_delay_hours ?? "") ?? -1,
          quiet_start: parseDays(v.quiet_start ?? "") ?? -1,
          quiet_end: parseDays(v.quiet_end ?? "") ?? -1,
          promo_code: (v.promo_code ?? "").trim(),
        })}
        save={(api, input) => saveStoreSettings(api, "cart_reminders", input)}
      />
    </>
  );
}

/** A field of whole hours from `min` to `max`: its message, or "" when it reads so. */
function hoursCheck(t: ReturnType<typeof useT>, min: number, max: number) {
  return (v: string) => {
    const hours = parseDays(v);
    return hours === null || hours < min || hours > max ? t("cartReminders.settings.hours", { min, max }) : "";
  };
}

/** The review screening's blocked words: one a line (commas too), blanks dropped. */
function blockedWords(text: string): string[] {
  return text
    .split(/[\n,،]+/)
    .map((w) => w.trim())
    .filter(Boolean);
}

/**
 * The owner's wording, per message and language: one left as the shop's own wording (or emptied)
 * is not sent, so it keeps following the locale files.
 */
function messagesInput(v: Record<string, string>, settings: ConsoleSettings): MessagesSettings {
  const out: MessagesSettings = {};
  for (const template of MESSAGE_TEMPLATES)
    for (const lang of LANGS) {
      const subject = (v[formName(`${template}.${lang}.subject`)] ?? "").trim();
      const text = (v[formName(`${template}.${lang}.text`)] ?? "").trim();
      const shop = settings.message_defaults[template][lang];
      if ((subject === shop.subject && text === shop.text) || (!subject && !text)) continue;
      out[template] = { ...out[template], [lang]: { subject, text } };
    }
  return out;
}

/** A 422's field names as this form names its inputs. */
function renameErrors(error: unknown, names: Record<string, string>): unknown {
  if (!(error instanceof ApiError) || error.status !== 422) return error;
  const errors = Object.fromEntries(Object.entries(error.errors).map(([k, m]) => [names[k] ?? k, m]));
  return new ApiError(422, error.message, errors, error.body);
}
