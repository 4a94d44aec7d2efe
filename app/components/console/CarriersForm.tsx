import { useState } from "react";
import { latinDigits } from "../../../contract/inputs";
import { REGIONS, SAUDI_REGIONS, type RegionId } from "../../../contract/regions";
import { SETTINGS_LIMITS } from "../../../contract/settings";
import {
  CARRIER_IDS,
  CARRIER_NAMES,
  CARRIER_RULES_MAX,
  LABEL_SIZES,
  type CarrierId,
  type CarriersSettings,
  type ShipFrom,
} from "../../../contract/shipping";
import type { FieldError } from "../../lib/api/errors";
import { useLocale, useT } from "../../lib/use-locale";
import { ErrorSummary } from "../form/ErrorSummary";
import { SubmitButton } from "../form/SubmitButton";
import { fieldId } from "../form/TextField";
import { useSectionSave } from "./useSectionSave";

/**
 * The settings page's carriers section: the carrier a parcel goes with when no rule takes it, the
 * owner's rules (a carrier for some regions, or anywhere, up to a weight or any weight; the first
 * that fits wins), the label size, and the warehouse the carriers collect from. Rules come and go,
 * so the section keeps plain state, each field named as the API names it (`rules.0.regions`,
 * `ship_from.phone`) so a 422's field errors land on their inputs (as ShippingZonesForm does).
 */

const ID = "settings-carriers";
const SHIP_FROM: (keyof ShipFrom)[] = ["name", "phone", "line1", "district", "city", "postal_code", "short_address"];
const REQUIRED: (keyof ShipFrom)[] = ["name", "phone", "line1", "city"];

interface TypedRule {
  /** The rule's place in this form, kept across removals (a React key, never sent). */
  key: number;
  carrier: CarrierId;
  regions: RegionId[];
  /** Grams as typed; empty: any weight. */
  grams: string;
}

/** Grams as typed ("2000", "٢٠٠٠"), or null when it is not a whole number in range. */
function gramsOf(text: string): number | null {
  const latin = latinDigits(text.trim());
  if (!/^\d{1,7}$/.test(latin)) return null;
  const n = Number(latin);
  return n >= 1 && n <= SETTINGS_LIMITS.parcelGramsMax ? n : null;
}

export function CarriersForm({ title, carriers }: { title: string; carriers: CarriersSettings }) {
  const t = useT();
  const locale = useLocale();
  const [fallback, setFallback] = useState<CarrierId>(carriers.default);
  const [labelSize, setLabelSize] = useState<CarriersSettings["label_size"]>(carriers.label_size);
  const [from, setFrom] = useState<ShipFrom>(() => ({ ...carriers.ship_from }));
  const [rules, setRules] = useState<TypedRule[]>(() =>
    carriers.rules.map((r, i) => ({
      key: i,
      carrier: r.carrier,
      regions: [...r.regions],
      grams: r.max_weight_grams === null ? "" : String(r.max_weight_grams),
    })),
  );
  const [nextKey, setNextKey] = useState(carriers.rules.length);
  const { errors, setErrors, message, attempt, busy, submit } = useSectionSave("carriers");

  const carrierName = (id: CarrierId) => CARRIER_NAMES[id][locale];
  const ruleName = (i: number) => t("console.carriers.rule", { n: i + 1 });
  const labels: Record<string, string> = {
    default: t("console.carriers.default"),
    label_size: t("console.carriers.labelSize"),
  };
  for (const f of SHIP_FROM) labels[`ship_from.${f}`] = t(`console.carriers.shipFrom.${f}`);
  rules.forEach((_, i) => {
    labels[`rules.${i}.carrier`] = `${ruleName(i)}: ${t("console.carriers.carrier")}`;
    labels[`rules.${i}.regions`] = `${ruleName(i)}: ${t("console.carriers.regions")}`;
    labels[`rules.${i}.max_weight_grams`] = `${ruleName(i)}: ${t("console.carriers.upTo")}`;
  });
  const errorOf = (name: string) => errors.find((e) => e.type === name)?.message ?? "";
  const clearError = (name: string) => setErrors((es) => es.filter((e) => e.type !== name));

  /** What the form holds, checked as the API checks it; errors under the API's field names. */
  const check = (): { input: CarriersSettings | null; found: FieldError[] } => {
    const found: FieldError[] = [];
    const out = rules.map((r, i) => {
      const typed = r.grams.trim();
      const grams = typed === "" ? null : gramsOf(typed);
      if (typed !== "" && grams === null)
        found.push({
          type: `rules.${i}.max_weight_grams`,
          message: t("console.carriers.errors.grams", { max: SETTINGS_LIMITS.parcelGramsMax }),
        });
      return { carrier: r.carrier, regions: r.regions, max_weight_grams: grams };
    });
    const shipFrom = Object.fromEntries(SHIP_FROM.map((f) => [f, from[f].trim()])) as unknown as ShipFrom;
    for (const f of REQUIRED)
      if (!shipFrom[f]) found.push({ type: `ship_from.${f}`, message: t("console.carriers.errors.required") });
    if (shipFrom.phone && !/^\+?[0-9 ]{7,20}$/.test(latinDigits(shipFrom.phone)))
      found.push({ type: "ship_from.phone", message: t("console.carriers.errors.phone") });
    if (!/^(\d{5})?$/.test(latinDigits(shipFrom.postal_code)))
      found.push({ type: "ship_from.postal_code", message: t("console.carriers.errors.postalCode") });
    if (!/^([A-Za-z]{4}\d{4})?$/.test(latinDigits(shipFrom.short_address)))
      found.push({ type: "ship_from.short_address", message: t("console.carriers.errors.shortAddress") });
    const input: CarriersSettings = {
      default: fallback,
      rules: out,
      label_size: labelSize,
      ship_from: {
        ...shipFrom,
        phone: latinDigits(shipFrom.phone),
        postal_code: latinDigits(shipFrom.postal_code),
        short_address: latinDigits(shipFrom.short_address).toUpperCase(),
      },
    };
    return { input: found.length ? null : input, found };
  };

  const setRule = (i: number, change: Partial<TypedRule>, field: string) => {
    setRules((rs) => rs.map((r, j) => (j === i ? { ...r, ...change } : r)));
    clearError(`rules.${i}.${field}`);
  };

  /** A field's error paragraph and the attributes that tie its input to it. */
  const described = (name: string, hintId?: string) => {
    const error = errorOf(name);
    const id = fieldId(name, ID);
    const ids = [hintId, error ? `${id}-error` : undefined].filter(Boolean).join(" ");
    return {
      id,
      error,
      attrs: { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined },
      message: error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null,
    };
  };

  const carrierSelect = (name: string, label: string, value: CarrierId, onChange: (c: CarrierId) => void) => {
    const d = described(name);
    return (
      <div className="field" data-invalid={d.error ? "true" : undefined}>
        <label htmlFor={d.id}>{label}</label>
        <select
          id={d.id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value as CarrierId)}
          {...d.attrs}
        >
          {CARRIER_IDS.map((c) => (
            <option key={c} value={c}>
              {carrierName(c)}
            </option>
          ))}
        </select>
        {d.message}
      </div>
    );
  };

  const shipFromInput = (f: keyof ShipFrom) => {
    const name = `ship_from.${f}`;
    const ltr = f === "phone" || f === "postal_code" || f === "short_address";
    const d = described(name);
    return (
      <div key={f} className="field" data-invalid={d.error ? "true" : undefined}>
        <label htmlFor={d.id}>{t(`console.carriers.shipFrom.${f}`)}</label>
        <input
          name={name}
          value={from[f]}
          autoComplete="off"
          dir={ltr ? "ltr" : "auto"}
          inputMode={f === "phone" ? "tel" : f === "postal_code" ? "numeric" : undefined}
          aria-required={REQUIRED.includes(f) ? "true" : undefined}
          onChange={(e) => {
            setFrom((s) => ({ ...s, [f]: e.target.value }));
            clearError(name);
          }}
          {...d.attrs}
          id={d.id}
        />
        {d.message}
      </div>
    );
  };

  const sizeField = described("label_size");
  return (
    <section className="console-panel settings-section" aria-labelledby={`${ID}-title`} data-carriers-settings>
      <h2 id={`${ID}-title`}>{title}</h2>
      <p className="console-hint">{t("console.carriers.intro")}</p>
      <form className="form" onSubmit={(e) => void submit(e, check)} noValidate>
        {errors.length || message ? (
          <ErrorSummary
            title={t("form.summary")}
            message={message}
            errors={errors}
            labels={labels}
            idPrefix={ID}
            focusKey={attempt}
          />
        ) : null}
        <div className="console-grid">
          {carrierSelect("default", t("console.carriers.default"), fallback, (c) => {
            setFallback(c);
            clearError("default");
          })}
          <div className="field" data-invalid={sizeField.error ? "true" : undefined}>
            <label htmlFor={sizeField.id}>{t("console.carriers.labelSize")}</label>
            <select
              id={sizeField.id}
              name="label_size"
              value={labelSize}
              onChange={(e) => setLabelSize(e.target.value as CarriersSettings["label_size"])}
              {...sizeField.attrs}
            >
              {LABEL_SIZES.map((s) => (
                <option key={s} value={s}>
                  {t(`console.carriers.sizes.${s === "4x6" ? "inches" : s}`)}
                </option>
              ))}
            </select>
            {sizeField.message}
          </div>
        </div>

        <fieldset className="settings-row">
          <legend>{t("console.carriers.rules")}</legend>
          <p className="console-hint">{t("console.carriers.rulesHint")}</p>
          {rules.length === 0 ? <p className="console-hint">{t("console.carriers.noRules")}</p> : null}
          {rules.map((r, i) => {
            const regions = described(`rules.${i}.regions`);
            const gramsHint = `${fieldId(`rules.${i}.max_weight_grams`, ID)}-hint`;
            const grams = described(`rules.${i}.max_weight_grams`, gramsHint);
            return (
              <fieldset key={r.key} className="settings-row shipping-zone" data-carrier-rule={i}>
                <legend>{ruleName(i)}</legend>
                <div className="console-grid">
                  {carrierSelect(`rules.${i}.carrier`, t("console.carriers.carrier"), r.carrier, (c) =>
                    setRule(i, { carrier: c }, "carrier"),
                  )}
                  <div className="field" data-invalid={grams.error ? "true" : undefined}>
                    <label htmlFor={grams.id}>{t("console.carriers.upTo")}</label>
                    <input
                      id={grams.id}
                      name={`rules.${i}.max_weight_grams`}
                      value={r.grams}
                      dir="ltr"
                      inputMode="numeric"
                      autoComplete="off"
                      onChange={(e) => setRule(i, { grams: e.target.value }, "max_weight_grams")}
                      {...grams.attrs}
                    />
                    <p id={gramsHint} className="field__hint">
                      {gramsOf(r.grams) !== null
                        ? t("console.carriers.upToSays", { grams: gramsOf(r.grams)!.toLocaleString("en-US") })
                        : t("console.carriers.anyWeight")}
                    </p>
                    {grams.message}
                  </div>
                </div>
                <fieldset
                  className="shipping-zone__regions"
                  data-invalid={regions.error ? "true" : undefined}
                  aria-describedby={regions.error ? `${regions.id}-error` : undefined}
                >
                  <legend>{t("console.carriers.regions")}</legend>
                  <p className="console-hint">{t("console.carriers.regionsHint")}</p>
                  <ul>
                    {SAUDI_REGIONS.map((region, n) => (
                      <li key={region}>
                        <label className="checkbox">
                          <input
                            type="checkbox"
                            // The error summary links to the first box of the list.
                            id={n === 0 ? regions.id : undefined}
                            name={`rules.${i}.regions`}
                            value={region}
                            checked={r.regions.includes(region)}
                            onChange={(e) =>
                              setRule(
                                i,
                                {
                                  regions: e.target.checked
                                    ? SAUDI_REGIONS.filter((x) => x === region || r.regions.includes(x))
                                    : r.regions.filter((x) => x !== region),
                                },
                                "regions",
                              )
                            }
                          />
                          <span>{REGIONS[region][locale]}</span>
                        </label>
                      </li>
                    ))}
                  </ul>
                  {regions.message}
                </fieldset>
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setRules((rs) => rs.filter((_, j) => j !== i));
                    setErrors([]);
                  }}
                >
                  {t("console.carriers.remove", { rule: ruleName(i) })}
                </button>
              </fieldset>
            );
          })}
          {rules.length < CARRIER_RULES_MAX ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setRules((rs) => [...rs, { key: nextKey, carrier: fallback, regions: [], grams: "" }]);
                setNextKey((k) => k + 1);
              }}
            >
              {t("console.carriers.add")}
            </button>
          ) : null}
        </fieldset>

        <fieldset className="settings-row">
          <legend>{t("console.carriers.shipFromTitle")}</legend>
          <p className="console-hint">{t("console.carriers.shipFromHint")}</p>
          <div className="console-grid">{SHIP_FROM.map(shipFromInput)}</div>
        </fieldset>
        <SubmitButton disabled={busy}>{t("console.settings.save", { section: title })}</SubmitButton>
      </form>
    </section>
  );
}
