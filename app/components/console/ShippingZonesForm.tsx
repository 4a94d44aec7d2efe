import { useState } from "react";
import { formatMinorUnits, readMoney } from "../../../contract/numbers";
import { REGIONS, SAUDI_REGIONS, type RegionId } from "../../../contract/regions";
import {
  SETTINGS_LIMITS,
  type ShippingRates,
  type ShippingSettings,
  type ShippingZone,
} from "../../../contract/settings";
import type { FieldError } from "../../lib/api/errors";
import { useLocale, useT } from "../../lib/use-locale";
import { ErrorSummary } from "../form/ErrorSummary";
import { SubmitButton } from "../form/SubmitButton";
import { fieldId } from "../form/TextField";
import { useSectionSave } from "./useSectionSave";

/**
 * The settings page's shipping section: the rates of the rest of the country and the owner's
 * zones (a name in both languages, the regions it covers, its own rates). Zones come and go, so
 * the section keeps its fields in plain state; each field is named as the API names it
 * (`zones.1.standard`), so a 422's field errors land on their inputs.
 */

type RateField = keyof ShippingRates;
const RATES: RateField[] = ["standard", "express", "free_threshold"];
const RATE_MAX: Record<RateField, number> = {
  standard: SETTINGS_LIMITS.shippingMax,
  express: SETTINGS_LIMITS.shippingMax,
  free_threshold: SETTINGS_LIMITS.thresholdMax,
};
const ID = "settings-shipping";

type TypedRates = Record<RateField, string>;
interface TypedZone extends TypedRates {
  /** The zone's place in this form, kept across removals (a React key, never sent). */
  key: number;
  name_en: string;
  name_ar: string;
  regions: RegionId[];
}

const typedRates = (r: ShippingRates): TypedRates => ({
  standard: formatMinorUnits(r.standard),
  express: formatMinorUnits(r.express),
  free_threshold: formatMinorUnits(r.free_threshold),
});

export function ShippingZonesForm({ title, shipping }: { title: string; shipping: ShippingSettings }) {
  const t = useT();
  const locale = useLocale();
  const [rest, setRest] = useState<TypedRates>(() => typedRates(shipping));
  const [zones, setZones] = useState<TypedZone[]>(() =>
    shipping.zones.map((z, i) => ({
      key: i,
      name_en: z.name_en,
      name_ar: z.name_ar,
      regions: [...z.regions],
      ...typedRates(z),
    })),
  );
  const [nextKey, setNextKey] = useState(shipping.zones.length);
  const { errors, setErrors, message, attempt, busy, submit } = useSectionSave("shipping");

  const zoneName = (z: Pick<TypedZone, "name_en" | "name_ar">, i: number) =>
    (locale === "ar" ? z.name_ar : z.name_en).trim() || t("console.shippingZones.unnamed", { n: i + 1 });

  const labels: Record<string, string> = {};
  for (const f of RATES) labels[f] = `${t("console.shippingZones.rest")}: ${t(`console.settings.fields.${f}`)}`;
  zones.forEach((z, i) => {
    const name = zoneName(z, i);
    labels[`zones.${i}.name_en`] = `${name}: ${t("console.shippingZones.nameEn")}`;
    labels[`zones.${i}.name_ar`] = `${name}: ${t("console.shippingZones.nameAr")}`;
    labels[`zones.${i}.regions`] = `${name}: ${t("console.shippingZones.regions")}`;
    for (const f of RATES) labels[`zones.${i}.${f}`] = `${name}: ${t(`console.settings.fields.${f}`)}`;
  });
  const errorOf = (name: string) => errors.find((e) => e.type === name)?.message ?? "";
  const clearError = (name: string) => setErrors((es) => es.filter((e) => e.type !== name));

  /** What the form holds, checked as the API checks it; errors under the API's field names. */
  const check = (): { input: ShippingSettings | null; found: FieldError[] } => {
    const found: FieldError[] = [];
    const money = (name: string, text: string, max: number): number => {
      const read = readMoney(text, { min: 0, max });
      if (!read.ok) found.push({ type: name, message: t("console.settings.errors.riyals") });
      return read.ok ? read.value : 0;
    };
    const rates = (prefix: string, typed: TypedRates): ShippingRates => ({
      standard: money(`${prefix}standard`, typed.standard, RATE_MAX.standard),
      express: money(`${prefix}express`, typed.express, RATE_MAX.express),
      free_threshold: money(`${prefix}free_threshold`, typed.free_threshold, RATE_MAX.free_threshold),
    });
    const restRates = rates("", rest);
    const owner = new Map<RegionId, number>();
    const out: ShippingZone[] = zones.map((z, i) => {
      for (const lang of ["en", "ar"] as const) {
        const name = z[`name_${lang}`].trim();
        if (!name || name.length > SETTINGS_LIMITS.name)
          found.push({
            type: `zones.${i}.name_${lang}`,
            message: name
              ? t("console.shippingZones.errors.nameLong", { max: SETTINGS_LIMITS.name })
              : t("console.shippingZones.errors.name"),
          });
      }
      if (!z.regions.length)
        found.push({ type: `zones.${i}.regions`, message: t("console.shippingZones.errors.regions") });
      for (const region of z.regions) {
        const taken = owner.get(region);
        if (taken === undefined) owner.set(region, i);
        else
          found.push({
            type: `zones.${i}.regions`,
            message: t("console.shippingZones.errors.taken", {
              region: REGIONS[region][locale],
              zone: zoneName(zones[taken]!, taken),
            }),
          });
      }
      const zoneRates = rates(`zones.${i}.`, z);
      return { name_en: z.name_en.trim(), name_ar: z.name_ar.trim(), regions: z.regions, ...zoneRates };
    });
    // One line per field: the first reason is enough to fix it.
    const unique = found.filter((e, i) => found.findIndex((x) => x.type === e.type) === i);
    return { input: unique.length ? null : { ...restRates, zones: out }, found: unique };
  };

  const setZone = (i: number, change: Partial<TypedZone>, field: string) => {
    setZones((zs) => zs.map((z, j) => (j === i ? { ...z, ...change } : z)));
    clearError(`zones.${i}.${field}`);
  };

  const input = (name: string, label: string, value: string, onChange: (v: string) => void, extra: object = {}) => {
    const error = errorOf(name);
    const id = fieldId(name, ID);
    return (
      <div className="field" data-invalid={error ? "true" : undefined}>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          value={value}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-required="true"
          onChange={(e) => onChange(e.target.value)}
          {...extra}
        />
        {error ? (
          <p id={`${id}-error`} className="field__error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  const rateInputs = (prefix: string, typed: TypedRates, onChange: (f: RateField, v: string) => void) => (
    <div className="console-grid">
      {RATES.map((f) => (
        <div key={f}>
          {input(`${prefix}${f}`, t(`console.settings.fields.${f}`), typed[f], (v) => onChange(f, v), {
            dir: "ltr",
            inputMode: "decimal",
          })}
        </div>
      ))}
    </div>
  );

  return (
    <section className="console-panel settings-section" aria-labelledby={`${ID}-title`}>
      <h2 id={`${ID}-title`}>{title}</h2>
      <p className="console-hint">{t("console.settings.shippingIntro")}</p>
      <p className="console-hint">{t("console.shippingZones.intro")}</p>
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
        <fieldset className="settings-row">
          <legend>{t("console.shippingZones.rest")}</legend>
          <p className="console-hint">{t("console.shippingZones.restHint")}</p>
          {rateInputs("", rest, (f, v) => {
            setRest((r) => ({ ...r, [f]: v }));
            clearError(f);
          })}
        </fieldset>
        {zones.map((z, i) => {
          const regionsError = errorOf(`zones.${i}.regions`);
          const regionsId = fieldId(`zones.${i}.regions`, ID);
          return (
            <fieldset key={z.key} className="settings-row shipping-zone">
              <legend>{zoneName(z, i)}</legend>
              <div className="console-bilingual">
                {input(
                  `zones.${i}.name_en`,
                  t("console.shippingZones.nameEn"),
                  z.name_en,
                  (v) => setZone(i, { name_en: v }, "name_en"),
                  {
                    lang: "en",
                    dir: "ltr",
                  },
                )}
                {input(
                  `zones.${i}.name_ar`,
                  t("console.shippingZones.nameAr"),
                  z.name_ar,
                  (v) => setZone(i, { name_ar: v }, "name_ar"),
                  {
                    lang: "ar",
                    dir: "rtl",
                  },
                )}
              </div>
              <fieldset
                className="shipping-zone__regions"
                data-invalid={regionsError ? "true" : undefined}
                aria-describedby={regionsError ? `${regionsId}-error` : undefined}
              >
                <legend>{t("console.shippingZones.regions")}</legend>
                <ul>
                  {SAUDI_REGIONS.map((region, r) => {
                    const elsewhere = zones.findIndex((other, j) => j !== i && other.regions.includes(region));
                    return (
                      <li key={region}>
                        <label className="checkbox">
                          <input
                            type="checkbox"
                            // The error summary links to the first box of the list.
                            id={r === 0 ? regionsId : undefined}
                            name={`zones.${i}.regions`}
                            value={region}
                            checked={z.regions.includes(region)}
                            onChange={(e) =>
                              setZone(
                                i,
                                {
                                  regions: e.target.checked
                                    ? [...z.regions, region]
                                    : z.regions.filter((x) => x !== region),
                                },
                                "regions",
                              )
                            }
                          />
                          <span>
                            {REGIONS[region][locale]}
                            {elsewhere >= 0 ? (
                              <small className="console-hint">
                                {" "}
                                {t("console.shippingZones.inZone", { zone: zoneName(zones[elsewhere]!, elsewhere) })}
                              </small>
                            ) : null}
                          </span>
                        </label>
                      </li>
                    );
                  })}
                </ul>
                {regionsError ? (
                  <p id={`${regionsId}-error`} className="field__error">
                    {regionsError}
                  </p>
                ) : null}
              </fieldset>
              {rateInputs(`zones.${i}.`, z, (f, v) => setZone(i, { [f]: v }, f))}
              <button
                type="button"
                className="button"
                onClick={() => {
                  setZones((zs) => zs.filter((_, j) => j !== i));
                  setErrors([]);
                }}
              >
                {t("console.shippingZones.remove", { zone: zoneName(z, i) })}
              </button>
            </fieldset>
          );
        })}
        {zones.length < SETTINGS_LIMITS.zonesMax ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              setZones((zs) => [
                ...zs,
                { key: nextKey, name_en: "", name_ar: "", regions: [], ...typedRates(shipping) },
              ]);
              setNextKey((k) => k + 1);
            }}
          >
            {t("console.shippingZones.add")}
          </button>
        ) : null}
        <SubmitButton disabled={busy}>{t("console.settings.save", { section: title })}</SubmitButton>
      </form>
    </section>
  );
}
