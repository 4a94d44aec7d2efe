import { useState } from "react";
import type { ConsoleVariant, ConsoleVariants } from "../../../contract/console-catalogue";
import { codeOf, VARIANT_LIMITS } from "../../../contract/console-catalogue";
import { useLocale, useT } from "../../lib/use-locale";
import { SubmitButton } from "../form/SubmitButton";
import { useRouteAction } from "../form/useRouteAction";

/**
 * A product's options and variants in the console, below its specifications: the options (colour,
 * storage…) with their values in both languages (a colour for a swatch), and a row per variant to
 * sell with its SKU, prices, limit and whether it is on sale. "Make the combinations" adds a row
 * for every combination not yet listed. Saved whole through the page's `variants` action; the
 * backend checks it all and answers field errors by row. Stock is the ledger's, except a new
 * variant's opening stock. Read-only for support.
 */

interface ValueDraft {
  key: string;
  /** Kept for a saved value (its links stay the same when it is renamed); made from the English name for a new one. */
  code: string;
  value_en: string;
  value_ar: string;
  swatch: string;
}

interface OptionDraft {
  key: string;
  code: string;
  name_en: string;
  name_ar: string;
  kind: "swatch" | "button";
  values: ValueDraft[];
}

interface VariantDraft {
  key: string;
  id?: number;
  /** Option key → value key. */
  choice: Record<string, string>;
  sku: string;
  barcode: string;
  price: string;
  compare_at_price: string;
  stock: string;
  max_per_order: string;
  active: boolean;
  ordered: boolean;
  /** Its own pictures as saved. */
  images: string[];
  /** What the picture field says: "" the product's, one of the product's pictures, or "own" (as saved). */
  picture: string;
}

/** The picture field's value for pictures as saved: one of the product's, or its own set kept as it is. */
function pictureOf(images: string[], productImages: readonly string[]): string {
  if (images.length === 0) return "";
  return images.length === 1 && productImages.includes(images[0]) ? images[0] : "own";
}

let counter = 0;
const newKey = () => `k${++counter}`;

const riyals = (halalas: number | null) => (halalas === null ? "" : (halalas / 100).toFixed(2));

function draftsOf(
  saved: ConsoleVariants,
  productImages: readonly string[],
): { options: OptionDraft[]; variants: VariantDraft[] } {
  const options = saved.options.map((o): OptionDraft => ({
    key: newKey(),
    code: o.code,
    name_en: o.name_en,
    name_ar: o.name_ar,
    kind: o.kind,
    values: o.values.map((v) => ({
      key: newKey(),
      code: v.code,
      value_en: v.value_en,
      value_ar: v.value_ar,
      swatch: v.swatch ?? "",
    })),
  }));
  const variants = saved.variants.map((v: ConsoleVariant): VariantDraft => {
    const choice: Record<string, string> = {};
    for (const o of options) {
      const value = o.values.find((x) => x.code === v.options[o.code]);
      if (value) choice[o.key] = value.key;
    }
    return {
      key: newKey(),
      id: v.id,
      choice,
      sku: v.sku,
      barcode: v.barcode ?? "",
      price: riyals(v.price),
      compare_at_price: riyals(v.compare_at_price),
      stock: String(v.stock),
      max_per_order: String(v.max_per_order),
      active: v.active,
      ordered: v.ordered,
      images: v.images ?? [],
      picture: pictureOf(v.images ?? [], productImages),
    };
  });
  return { options, variants };
}

/** The request the backend takes (contract/console-catalogue.ts `productVariantsInput`): prices as typed riyals. */
export function variantsRequest(options: OptionDraft[], variants: VariantDraft[]) {
  const codeOfOption = (o: OptionDraft) => o.code || codeOf(o.name_en, "_");
  const codeOfValue = (v: ValueDraft) => v.code || codeOf(v.value_en, "-");
  return {
    options: options.map((o) => ({
      code: codeOfOption(o),
      name_en: o.name_en,
      name_ar: o.name_ar,
      kind: o.kind,
      values: o.values.map((v) => ({
        code: codeOfValue(v),
        value_en: v.value_en,
        value_ar: v.value_ar,
        swatch: o.kind === "swatch" && v.swatch ? v.swatch : null,
      })),
    })),
    variants: variants.map((v) => ({
      ...(v.id !== undefined ? { id: v.id } : {}),
      sku: v.sku,
      barcode: v.barcode,
      price: v.price,
      compare_at_price: v.compare_at_price,
      ...(v.id === undefined ? { stock: v.stock || "0" } : {}),
      max_per_order: v.max_per_order || "5",
      active: v.active,
      images: v.picture === "own" ? v.images : v.picture ? [v.picture] : [],
      options: Object.fromEntries(
        options.flatMap((o) => {
          const value = o.values.find((x) => x.key === v.choice[o.key]);
          return value ? [[codeOfOption(o), codeOfValue(value)]] : [];
        }),
      ),
    })),
  };
}

export function ProductVariantsForm({
  saved,
  productSku,
  productImages,
  canWrite,
}: {
  saved: ConsoleVariants;
  productSku: string;
  /** The product's pictures, which a variant may show as its own (a colour's). */
  productImages: readonly string[];
  canWrite: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const { submit, busy, serverErrors, serverMessage } = useRouteAction();
  const [{ options, variants }, setDraft] = useState(() => draftsOf(saved, productImages));
  const setOptions = (next: OptionDraft[]) => setDraft((d) => ({ ...d, options: next }));
  const setVariants = (next: VariantDraft[]) => setDraft((d) => ({ ...d, variants: next }));
  const errorOf = (field: string) => serverErrors.find((e) => e.type === field)?.message;
  const field = (key: string) => `variants-${key}`;

  const editOption = (at: number, change: Partial<OptionDraft>) =>
    setOptions(options.map((o, i) => (i === at ? { ...o, ...change } : o)));
  const editValue = (at: number, valueAt: number, change: Partial<ValueDraft>) =>
    editOption(at, { values: options[at].values.map((v, i) => (i === valueAt ? { ...v, ...change } : v)) });
  const editVariant = (at: number, change: Partial<VariantDraft>) =>
    setVariants(variants.map((v, i) => (i === at ? { ...v, ...change } : v)));

  /** A row for every combination of the options' values not yet listed, priced like the first row. */
  const combine = () => {
    const combos = options.reduce<Record<string, string>[]>(
      (acc, o) => acc.flatMap((c) => o.values.map((v) => ({ ...c, [o.key]: v.key }))),
      [{}],
    );
    const complete = (v: VariantDraft) => options.every((o) => v.choice[o.key]);
    const listed = new Set(variants.map((v) => options.map((o) => v.choice[o.key] ?? "").join("|")));
    const template = variants[0];
    const missing = combos.filter((c) => !listed.has(options.map((o) => c[o.key]).join("|")));
    // A saved row without a value of every option (the product's own variant, before it had
    // options) takes the first combinations, keeping its SKU, stock and ledger; other incomplete
    // rows go, the combinations replace them.
    const rows = variants.flatMap((v): VariantDraft[] => {
      if (complete(v)) return [v];
      if (v.id === undefined) return [];
      const choice = missing.shift();
      return choice ? [{ ...v, choice }] : [v];
    });
    const added = missing.slice(0, VARIANT_LIMITS.variants - rows.length).map((choice): VariantDraft => {
      const names = options.map((o) => o.values.find((v) => v.key === choice[o.key]));
      return {
        key: newKey(),
        choice,
        sku: [productSku, ...names.map((v) => (v ? v.code || codeOf(v.value_en, "-") : ""))].join("-").toUpperCase(),
        barcode: "",
        price: template?.price ?? "",
        compare_at_price: "",
        stock: "0",
        max_per_order: template?.max_per_order ?? "5",
        active: true,
        ordered: false,
        images: [],
        picture: "",
      };
    });
    setVariants([...rows, ...added]);
  };

  const label = (v: VariantDraft) =>
    options
      .map((o) => {
        const value = o.values.find((x) => x.key === v.choice[o.key]);
        return value ? (locale === "ar" ? value.value_ar : value.value_en) || value.value_en : "—";
      })
      .join(" · ") || t("console.variants.only");

  return (
    <section
      className="console-panel"
      aria-labelledby="product-variants-title"
      aria-describedby="product-variants-hint"
    >
      <h2 id="product-variants-title">{t("console.variants.title")}</h2>
      <p className="console-hint" id="product-variants-hint">
        {t("console.variants.hint")}
      </p>
      {serverMessage ? (
        <p className="field__error" role="alert">
          {serverMessage}
        </p>
      ) : null}
      {errorOf("variants") ? (
        <p className="field__error" role="alert">
          {errorOf("variants")}
        </p>
      ) : null}
      <form
        className="form product-variants"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(
            "variants",
            { payload: JSON.stringify(variantsRequest(options, variants)) },
            { loading: t("console.variants.saving"), success: () => t("console.variants.saved") },
          );
        }}
      >
        <fieldset disabled={!canWrite || busy} className="product-variants__options">
          <legend>{t("console.variants.options")}</legend>
          {options.map((option, at) => (
            <fieldset key={option.key} className="product-variants__option">
              <legend>{t("console.variants.option", { n: at + 1 })}</legend>
              <div className="console-grid">
                {(["en", "ar"] as const).map((lang) => (
                  <div className="field" key={lang}>
                    <label htmlFor={field(`${option.key}-${lang}`)}>
                      {t(lang === "en" ? "console.variants.nameEn" : "console.variants.nameAr")}
                    </label>
                    <input
                      id={field(`${option.key}-${lang}`)}
                      lang={lang}
                      dir={lang === "ar" ? "rtl" : "ltr"}
                      value={option[`name_${lang}`]}
                      maxLength={VARIANT_LIMITS.name}
                      onChange={(e) => editOption(at, { [`name_${lang}`]: e.target.value })}
                    />
                  </div>
                ))}
                <div className="field">
                  <label htmlFor={field(`${option.key}-kind`)}>{t("console.variants.kind")}</label>
                  <select
                    id={field(`${option.key}-kind`)}
                    value={option.kind}
                    onChange={(e) => editOption(at, { kind: e.target.value === "swatch" ? "swatch" : "button" })}
                  >
                    <option value="button">{t("console.variants.kindButton")}</option>
                    <option value="swatch">{t("console.variants.kindSwatch")}</option>
                  </select>
                </div>
              </div>
              <div className="console-table">
                <div
                  className="console-table__scroll"
                  // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable)
                  tabIndex={0}
                  role="region"
                  aria-label={t("console.variants.valuesOf", { name: option.name_en })}
                >
                  <table className="product-variants__values">
                    <caption className="visually-hidden">
                      {t("console.variants.valuesOf", { name: option.name_en })}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">{t("console.variants.valueEn")}</th>
                        <th scope="col">{t("console.variants.valueAr")}</th>
                        {option.kind === "swatch" ? <th scope="col">{t("console.variants.swatch")}</th> : null}
                        <th scope="col">
                          <span className="visually-hidden">{t("console.table.actions")}</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {option.values.map((value, valueAt) => (
                        <tr key={value.key}>
                          {(["en", "ar"] as const).map((lang) => (
                            <td key={lang}>
                              <input
                                aria-label={t(
                                  lang === "en" ? "console.variants.valueEnOf" : "console.variants.valueArOf",
                                  {
                                    n: valueAt + 1,
                                  },
                                )}
                                lang={lang}
                                dir={lang === "ar" ? "rtl" : "ltr"}
                                value={value[`value_${lang}`]}
                                maxLength={VARIANT_LIMITS.name}
                                onChange={(e) => editValue(at, valueAt, { [`value_${lang}`]: e.target.value })}
                              />
                            </td>
                          ))}
                          {option.kind === "swatch" ? (
                            <td>
                              <input
                                type="color"
                                aria-label={t("console.variants.swatchOf", { n: valueAt + 1 })}
                                value={value.swatch || "#888888"}
                                onChange={(e) => editValue(at, valueAt, { swatch: e.target.value })}
                              />
                            </td>
                          ) : null}
                          <td>
                            <button
                              type="button"
                              className="link-button"
                              onClick={() => editOption(at, { values: option.values.filter((_, i) => i !== valueAt) })}
                            >
                              {t("console.variants.removeValue", { n: valueAt + 1 })}
                            </button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
              <div className="product-variants__actions">
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={option.values.length >= VARIANT_LIMITS.values}
                  onClick={() =>
                    editOption(at, {
                      values: [...option.values, { key: newKey(), code: "", value_en: "", value_ar: "", swatch: "" }],
                    })
                  }
                >
                  {t("console.variants.addValue")}
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={() => setOptions(options.filter((_, i) => i !== at))}
                >
                  {t("console.variants.removeOption", { n: at + 1 })}
                </button>
              </div>
            </fieldset>
          ))}
          <div className="product-variants__actions">
            <button
              type="button"
              className="button button--ghost"
              disabled={options.length >= VARIANT_LIMITS.options}
              onClick={() =>
                setOptions([
                  ...options,
                  { key: newKey(), code: "", name_en: "", name_ar: "", kind: "button", values: [] },
                ])
              }
            >
              {t("console.variants.addOption")}
            </button>
            <button type="button" className="button" disabled={options.length === 0} onClick={combine}>
              {t("console.variants.combine")}
            </button>
          </div>
        </fieldset>

        <div className="console-table">
          <div
            className="console-table__scroll"
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable)
            tabIndex={0}
            role="region"
            aria-label={t("console.variants.rows", { count: variants.length })}
          >
            <table className="product-variants__rows">
              <caption>{t("console.variants.rows", { count: variants.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("console.variants.variant")}</th>
                  <th scope="col">{t("console.fields.sku")}</th>
                  <th scope="col">{t("console.productForm.barcode")}</th>
                  <th scope="col">{t("console.fields.price")}</th>
                  <th scope="col">{t("console.fields.compare_at_price")}</th>
                  <th scope="col">{t("console.fields.stock")}</th>
                  <th scope="col">{t("console.fields.max_per_order")}</th>
                  <th scope="col">{t("console.variants.onSale")}</th>
                  <th scope="col">{t("console.variants.picture")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("console.table.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {variants.map((variant, at) => {
                  const name = label(variant);
                  const problems = [
                    "options",
                    "sku",
                    "barcode",
                    "price",
                    "compare_at_price",
                    "stock",
                    "max_per_order",
                    "id",
                  ]
                    .map((f) => errorOf(`variants.${at}.${f}`))
                    .filter((m): m is string => Boolean(m));
                  const errorId = field(`${variant.key}-error`);
                  const input = (
                    key: "sku" | "barcode" | "price" | "compare_at_price" | "stock" | "max_per_order",
                    labelKey: string,
                  ) => (
                    <input
                      aria-label={`${t(labelKey)}: ${name}`}
                      dir="ltr"
                      inputMode={
                        key === "sku"
                          ? undefined
                          : key === "price" || key === "compare_at_price"
                            ? "decimal"
                            : "numeric"
                      }
                      value={variant[key]}
                      aria-invalid={errorOf(`variants.${at}.${key}`) ? true : undefined}
                      aria-describedby={problems.length ? errorId : undefined}
                      onChange={(e) => editVariant(at, { [key]: e.target.value })}
                    />
                  );
                  return (
                    <tr key={variant.key} data-invalid={problems.length ? "true" : undefined}>
                      <th scope="row">
                        {options.length ? (
                          <span className="product-variants__choice">
                            {options.map((o) => (
                              <select
                                key={o.key}
                                aria-label={`${o.name_en || t("console.variants.option", { n: 1 })}: ${name}`}
                                value={variant.choice[o.key] ?? ""}
                                onChange={(e) =>
                                  editVariant(at, { choice: { ...variant.choice, [o.key]: e.target.value } })
                                }
                              >
                                <option value="">—</option>
                                {o.values.map((v) => (
                                  <option key={v.key} value={v.key}>
                                    {(locale === "ar" ? v.value_ar : v.value_en) || v.value_en}
                                  </option>
                                ))}
                              </select>
                            ))}
                          </span>
                        ) : (
                          name
                        )}
                        {problems.length ? (
                          <span className="field__error" id={errorId}>
                            {problems.join(" ")}
                          </span>
                        ) : null}
                      </th>
                      <td data-label={t("console.fields.sku")}>{input("sku", "console.fields.sku")}</td>
                      <td data-label={t("console.productForm.barcode")}>
                        {input("barcode", "console.productForm.barcode")}
                      </td>
                      <td data-label={t("console.fields.price")}>{input("price", "console.fields.price")}</td>
                      <td data-label={t("console.fields.compare_at_price")}>
                        {input("compare_at_price", "console.fields.compare_at_price")}
                      </td>
                      <td data-label={t("console.fields.stock")}>
                        {variant.id === undefined ? (
                          input("stock", "console.fields.stock")
                        ) : (
                          // Saved stock moves through the inventory ledger only.
                          <span title={t("console.variants.stockByLedger")}>{variant.stock}</span>
                        )}
                      </td>
                      <td data-label={t("console.fields.max_per_order")}>
                        {input("max_per_order", "console.fields.max_per_order")}
                      </td>
                      <td data-label={t("console.variants.onSale")}>
                        <input
                          type="checkbox"
                          aria-label={`${t("console.variants.onSale")}: ${name}`}
                          checked={variant.active}
                          onChange={(e) => editVariant(at, { active: e.target.checked })}
                        />
                      </td>
                      <td data-label={t("console.variants.picture")}>
                        <span className="product-variants__picture">
                          {(variant.picture === "own" ? variant.images[0] : variant.picture || productImages[0]) ? (
                            <img
                              src={variant.picture === "own" ? variant.images[0] : variant.picture || productImages[0]}
                              alt=""
                              width={32}
                              height={32}
                              loading="lazy"
                            />
                          ) : null}
                          <select
                            aria-label={`${t("console.variants.picture")}: ${name}`}
                            value={variant.picture}
                            onChange={(e) => editVariant(at, { picture: e.target.value })}
                          >
                            <option value="">{t("console.variants.productPictures")}</option>
                            {productImages.map((url, n) => (
                              <option key={url} value={url}>
                                {t("console.variants.pictureN", { n: n + 1 })}
                              </option>
                            ))}
                            {variant.images.length && pictureOf(variant.images, productImages) === "own" ? (
                              <option value="own">
                                {t("console.variants.ownPictures", { count: variant.images.length })}
                              </option>
                            ) : null}
                          </select>
                        </span>
                      </td>
                      <td>
                        <button
                          type="button"
                          className="link-button"
                          onClick={() => setVariants(variants.filter((_, i) => i !== at))}
                        >
                          {variant.ordered
                            ? t("console.variants.stop", { name })
                            : t("console.variants.remove", { name })}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
        {canWrite ? <SubmitButton disabled={busy}>{t("console.variants.save")}</SubmitButton> : null}
      </form>
    </section>
  );
}
