import { getValue, setValue, useForm } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense, useMemo, useState, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { Link } from "../../lib/link";
import {
  PRODUCT_LIMITS,
  type ConsoleProduct,
  type ProductChoices,
  type Spec,
} from "../../../contract/console-catalogue-shapes";
import { slugFromNames } from "../../../contract/slug";
import type { ConsoleField } from "../../../contract/console";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { FORM_OPTIONS, formMessages, visibleError } from "../../lib/forms";
import { useBackendBase } from "../../lib/console-files";
import type * as ProductRules from "../../lib/console-product-rules";
import { LOCALES } from "../../lib/locales";
import { formatMoney } from "../../lib/money";
import { formatMinorUnits, readMoney } from "../../../contract/numbers";
import { formatWeight } from "../../lib/weight";
import { useLocale, useT } from "../../lib/use-locale";
import { FormErrors } from "../form/FormErrors";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useFormSubmit } from "../form/useFormSubmit";
import { ImagesEditor, SpecsEditor } from "./ProductEditors";

/**
 * The console's product form: English and Arabic side by side, the page's language
 * first, each column in its own direction with the page's labels in the page's direction; the rules are the contract's product schema (contract/console-catalogue.ts), so the
 * form says what the backend and the CSV import say. Stock is asked only for a new product: after
 * that it moves through Inventory.
 */

const TEXT_FIELDS = [
  "name_en",
  "name_ar",
  "description_en",
  "description_ar",
  "slug",
  "sku",
  "model",
  "price",
  "compare_at_price",
  "stock",
  "max_per_order",
  "low_stock_threshold",
  "category_id",
  "brand_id",
  "seo_title_en",
  "seo_title_ar",
  "seo_description_en",
  "seo_description_ar",
  "weight_grams",
  "barcode",
] as const satisfies readonly ConsoleField[];
/** Fields labelled under console.productForm (the rest under console.fields). */
const FORM_LABELS = new Set<string>([
  "seo_title_en",
  "seo_title_ar",
  "seo_description_en",
  "seo_description_ar",
  "weight_grams",
  "barcode",
]);
type TextFieldName = (typeof TEXT_FIELDS)[number];
type Values = Record<TextFieldName, string>;

const str = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

function initialValues(p: ConsoleProduct | null): Values {
  return {
    name_en: p?.name_en ?? "",
    name_ar: p?.name_ar ?? "",
    description_en: p?.description_en ?? "",
    description_ar: p?.description_ar ?? "",
    slug: p?.slug ?? "",
    sku: p?.sku ?? "",
    model: p?.model ?? "",
    // Prices are typed and shown in riyals ("299.50"); the schema reads them back into halalas.
    price: p ? formatMinorUnits(p.price) : "",
    compare_at_price: p?.compare_at_price == null ? "" : formatMinorUnits(p.compare_at_price),
    stock: p ? str(p.stock) : "0",
    max_per_order: str(p?.max_per_order ?? 5),
    low_stock_threshold: str(p?.low_stock_threshold ?? 5),
    category_id: str(p?.category_id),
    brand_id: str(p?.brand_id),
    seo_title_en: p?.seo_title_en ?? "",
    seo_title_ar: p?.seo_title_ar ?? "",
    seo_description_en: p?.seo_description_en ?? "",
    seo_description_ar: p?.seo_description_ar ?? "",
    weight_grams: str(p?.weight_grams),
    barcode: p?.barcode ?? "",
  };
}

/**
 * What the form needs only once the operator acts, loaded then: the contract's rules (with valibot)
 * when a field is first checked, the API calls when something is saved, the dialog when it opens.
 * The first load stays within the shop's per-route budget (budgets.json).
 */
let rulesModule: Promise<typeof ProductRules> | undefined;
const productRules = () => (rulesModule ??= import("../../lib/console-product-rules"));
const calls = () => import("../../lib/api/console-catalogue");
const ConfirmDialog = lazy(() => import("./ConfirmDialog").then((m) => ({ default: m.ConfirmDialog })));

export function ProductForm({
  product,
  choices,
  canWrite,
  onSaved,
}: {
  product: ConsoleProduct | null;
  choices: ProductChoices;
  canWrite: boolean;
  onSaved: (saved: ConsoleProduct, created: boolean) => Promise<void>;
}) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const backend = useBackendBase();
  const labels = useMemo(
    () =>
      Object.fromEntries(
        TEXT_FIELDS.map((f) => [f, t(FORM_LABELS.has(f) ? `console.productForm.${f}` : `console.fields.${f}`)]),
      ) as Record<TextFieldName, string>,
    [t],
  );
  const rules = useMemo(
    () =>
      Object.fromEntries(
        TEXT_FIELDS.map((field) => [
          field,
          async (value: string | undefined) => (await productRules()).checkProductField(t, labels, field, value ?? ""),
        ]),
      ) as Record<TextFieldName, (value: string | undefined) => Promise<string>>,
    [t, labels],
  );
  const messages = useMemo(() => formMessages(t), [t]);
  const [form, { Form, Field }] = useForm<Values>({ ...FORM_OPTIONS, initialValues: initialValues(product) });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const [specsEn, setSpecsEn] = useState<Spec[]>(product?.specs_en ?? []);
  const [specsAr, setSpecsAr] = useState<Spec[]>(product?.specs_ar ?? []);
  const [images, setImages] = useState<string[]>(product?.images ?? []);
  const [flags, setFlags] = useState({
    is_featured: product?.is_featured ?? false,
    is_new: product?.is_new ?? false,
    active: product?.active ?? true,
  });
  // A new product's slug follows its name until the merchant writes one; a saved one's never moves.
  const [slugByHand, setSlugByHand] = useState(product !== null);
  const ui = { lang: locale, dir: LOCALES[locale].dir };
  const [confirming, setConfirming] = useState(false);
  // Once loaded, the dialog stays mounted (closed), so closing it hands focus back to its button.
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const serverError = (field: string) => serverErrors.find((e) => e.type === field)?.message;
  const name = (c: { name_en: string; name_ar: string }) => (locale === "ar" ? c.name_ar : c.name_en);

  // Of several variants, its price follows theirs: shown as it is now, set with the variants (the
  // backend leaves it theirs whatever the form sends).
  const byVariants = (product?.variant_count ?? 1) > 1;
  const save = async (values: Values) => {
    const { stock, ...rest } = values;
    const payload = {
      ...rest,
      ...(product ? {} : { stock }),
      // Shown, not fields: sent as they are (the backend keeps them its variants' anyway).
      ...(byVariants && product
        ? {
            price: formatMinorUnits(product.price),
            compare_at_price: product.compare_at_price == null ? "" : formatMinorUnits(product.compare_at_price),
          }
        : {}),
      specs_en: specsEn,
      specs_ar: specsAr,
      images,
      ...flags,
    };
    const api = browserApi(locale);
    const { createProduct, updateProduct } = await calls();
    const saved = await run(
      t("console.saving"),
      () => (product ? updateProduct(api, product.id, payload) : createProduct(api, payload)),
      () => (product ? t("console.products.saved") : t("console.products.created")),
    );
    if (saved) await onSaved(saved.data, !product);
  };

  const duplicate = async () => {
    if (!product) return;
    const id = toast.loading(t("console.productForm.duplicating"));
    try {
      const { duplicateProduct } = await calls();
      const copy = await duplicateProduct(browserApi(locale), product.id);
      toast.success(t("console.productForm.duplicated"), { id });
      await navigate(`/${locale}/admin/products/${copy.data.id}`);
    } catch (error) {
      toast.dismiss(id);
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const upload = async (file: File) => {
    try {
      const { uploadImage } = await calls();
      return (await uploadImage(browserApi(locale), backend, file)).data.url;
    } catch (error) {
      handleBrowserError(error, locale, (path) => void navigate(path));
      return null;
    }
  };

  const setActive = async (active: boolean) => {
    if (!product) return;
    const id = toast.loading(t("console.saving"));
    try {
      const api = browserApi(locale);
      const { deactivateProduct, reactivateProduct } = await calls();
      const saved = await (active ? reactivateProduct(api, product.id) : deactivateProduct(api, product.id));
      toast.success(active ? t("console.products.reactivated") : t("console.products.deactivated"), { id });
      setFlags((f) => ({ ...f, active }));
      await onSaved(saved.data, false);
    } catch (error) {
      toast.dismiss(id);
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const text = (
    field: TextFieldName,
    opts: {
      dir?: "ltr" | "rtl";
      lang?: string;
      multiline?: boolean;
      required?: boolean;
      hint?: string;
      inputMode?: "numeric";
      maxLength?: number;
      /** After the field's own change handler (the names fill the slug). */
      onChange?: (value: string) => void;
    } = {},
  ) => (
    <Field name={field} validate={[rules[field]]}>
      {(f, props) => (
        <TextField
          form={form}
          field={f}
          props={
            opts.onChange
              ? {
                  ...props,
                  onChange: (event) => {
                    props.onChange(event);
                    opts.onChange?.(event.currentTarget.value);
                  },
                }
              : props
          }
          ui={opts.lang && opts.lang !== locale ? ui : undefined}
          maxLength={opts.maxLength}
          label={labels[field]}
          dir={opts.dir}
          lang={opts.lang}
          multiline={opts.multiline}
          rows={opts.multiline ? 6 : undefined}
          required={opts.required}
          hint={opts.hint}
          inputMode={opts.inputMode}
          readOnly={!canWrite}
        />
      )}
    </Field>
  );

  const money = (field: "price" | "compare_at_price") =>
    byVariants && product ? (
      <div className="field" data-by-variants={field}>
        <span className="console-check__label" id={`f-${field}-label`}>
          {labels[field]}
        </span>
        <p aria-labelledby={`f-${field}-label`} aria-describedby={`f-${field}-hint`}>
          <strong>{product[field] === null ? "—" : formatMoney(product[field], "SAR", locale)}</strong>
        </p>
        <p className="field__hint" id={`f-${field}-hint`}>
          {t("console.products.priceByVariants")}
        </p>
      </div>
    ) : (
      <Field name={field} validate={[rules[field]]}>
        {(f, props) => {
          const reading = readMoney(f.value.value ?? "");
          const amount = reading.ok ? formatMoney(reading.value, "SAR", locale) : "";
          return (
            <TextField
              form={form}
              field={f}
              props={props}
              label={labels[field]}
              dir="ltr"
              inputMode="decimal"
              required={field === "price"}
              readOnly={!canWrite}
              hint={amount ? t("numbers.moneyPreview", { amount }) : t("numbers.moneyHint")}
            />
          );
        }}
      </Field>
    );

  const select = (field: "category_id" | "brand_id", list: { id: number; name_en: string; name_ar: string }[]) => (
    <Field name={field} validate={[rules[field]]}>
      {(f, props) => {
        const error = visibleError(f, form) || serverError(field);
        return (
          <div className="field" data-invalid={error ? "true" : undefined}>
            <label htmlFor={`f-${field}`}>
              {labels[field]}
              {field === "category_id" ? (
                <span className="field__required" aria-hidden="true">
                  {" *"}
                </span>
              ) : null}
            </label>
            <select
              {...props}
              id={`f-${field}`}
              value={f.value.value ?? ""}
              disabled={!canWrite}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `f-${field}-error` : undefined}
              aria-required={field === "category_id" ? true : undefined}
            >
              <option value="">
                {field === "brand_id" ? t("console.products.noBrand") : t("console.products.chooseCategory")}
              </option>
              {list.map((c) => (
                <option key={c.id} value={c.id}>
                  {name(c)}
                </option>
              ))}
            </select>
            {error ? (
              <p className="field__error" id={`f-${field}-error`}>
                {error}
              </p>
            ) : null}
          </div>
        );
      }}
    </Field>
  );

  const fillSlug = () => {
    if (slugByHand) return;
    setValue(form, "slug", slugFromNames(getValue(form, "name_en") ?? "", getValue(form, "name_ar") ?? ""));
  };

  /** One language's column: its fields in its direction, the page's language first. */
  const column = (lang: "en" | "ar", children: (lang: "en" | "ar", dir: "ltr" | "rtl") => ReactNode) => (
    <div key={lang} lang={lang} dir={LOCALES[lang].dir} className="console-bilingual__column" data-lang={lang}>
      {children(lang, LOCALES[lang].dir)}
    </div>
  );
  const langs: ("en" | "ar")[] = locale === "ar" ? ["ar", "en"] : ["en", "ar"];

  const weight = (
    <Field name="weight_grams" validate={[rules.weight_grams]}>
      {(f, props) => (
        <TextField
          form={form}
          field={f}
          props={props}
          label={labels.weight_grams}
          dir="ltr"
          inputMode="numeric"
          readOnly={!canWrite}
          hint={<WeightHint value={f.value} />}
        />
      )}
    </Field>
  );

  const title = product ? name(product) : t("console.products.new");
  return (
    <>
      <p>
        <Link to={`/${locale}/admin/products`}>{t("console.products.back")}</Link>
      </p>
      <h1>
        <bdi>{title}</bdi>
      </h1>
      {product ? (
        <p>
          {product.active ? (
            <span className="console-badge console-badge--ok">{t("console.products.activeBadge")}</span>
          ) : (
            <span className="console-badge console-badge--danger">{t("console.products.hiddenBadge")}</span>
          )}{" "}
          <a href={`/${locale}/product-details/${product.slug}`} target="_blank" rel="noreferrer">
            {t("console.products.viewInShop")}
          </a>
        </p>
      ) : null}
      <Form className="form console-product-form" onSubmit={save} shouldFocus={false} aria-label={title}>
        <FormErrors
          form={form}
          messages={messages}
          serverErrors={serverErrors}
          serverMessage={serverMessage}
          labels={{
            ...labels,
            specs_en: t("console.fields.specs_en"),
            specs_ar: t("console.fields.specs_ar"),
            images: t("console.fields.images"),
          }}
        />
        <section className="console-panel" aria-labelledby="pf-names">
          <h2 id="pf-names">{t("console.products.namesSection")}</h2>
          <div className="console-bilingual">
            {langs.map((l) =>
              column(l, (lang, dir) => (
                <>
                  {text(`name_${lang}`, { dir, lang, required: true, onChange: fillSlug })}
                  {text(`description_${lang}`, { dir, lang, multiline: true })}
                </>
              )),
            )}
          </div>
        </section>
        <section className="console-panel" aria-labelledby="pf-specs">
          <h2 id="pf-specs">{t("console.products.specsSection")}</h2>
          <div className="console-bilingual">
            {langs.map((lang) => (
              <SpecsEditor
                key={lang}
                lang={lang}
                legend={t(`console.fields.specs_${lang}`)}
                value={lang === "en" ? specsEn : specsAr}
                onChange={lang === "en" ? setSpecsEn : setSpecsAr}
                error={serverError(`specs_${lang}`)}
                readOnly={!canWrite}
              />
            ))}
          </div>
        </section>
        <section className="console-panel" aria-labelledby="pf-seo" aria-describedby="pf-seo-hint">
          <h2 id="pf-seo">{t("console.productForm.seoSection")}</h2>
          <p className="console-hint" id="pf-seo-hint">
            {t("console.productForm.seoHint")}
          </p>
          <div className="console-bilingual">
            {langs.map((l) =>
              column(l, (lang, dir) => (
                <>
                  {text(`seo_title_${lang}`, {
                    dir,
                    lang,
                    maxLength: PRODUCT_LIMITS.seoTitle,
                    hint: t("console.productForm.seoTitleHint", { max: PRODUCT_LIMITS.seoTitle }),
                  })}
                  {text(`seo_description_${lang}`, {
                    dir,
                    lang,
                    multiline: true,
                    hint: t("console.productForm.seoDescriptionHint", { max: PRODUCT_LIMITS.seoDescription }),
                  })}
                </>
              )),
            )}
          </div>
        </section>
        <section className="console-panel" aria-labelledby="pf-identity">
          <h2 id="pf-identity">{t("console.products.identitySection")}</h2>
          <div className="console-grid">
            <Field name="slug" validate={[rules.slug]}>
              {(f, props) => (
                <TextField
                  form={form}
                  field={f}
                  props={{
                    ...props,
                    onChange: (event) => {
                      props.onChange(event);
                      setSlugByHand(true);
                    },
                  }}
                  label={labels.slug}
                  dir="ltr"
                  required
                  readOnly={!canWrite}
                  hint={
                    slugByHand
                      ? t("console.products.slugHint")
                      : `${t("console.products.slugHint")} ${t("console.productForm.slugAuto")}`
                  }
                />
              )}
            </Field>
            {text("sku", { dir: "ltr", required: true })}
            {text("model", { dir: "ltr" })}
            {text("barcode", { dir: "ltr", inputMode: "numeric", hint: t("console.productForm.barcodeHint") })}
            {select("category_id", choices.categories)}
            {select("brand_id", choices.brands)}
          </div>
        </section>
        <section className="console-panel" aria-labelledby="pf-price">
          <h2 id="pf-price">{t("console.products.priceSection")}</h2>
          <div className="console-grid">
            {money("price")}
            {money("compare_at_price")}
            {product ? (
              <div className="field">
                <span className="console-check__label">{labels.stock}</span>
                <p>
                  <strong>{product.stock}</strong>{" "}
                  <Link to={`/${locale}/admin/inventory`}>{t("console.products.stockByInventory")}</Link>
                </p>
              </div>
            ) : (
              text("stock", {
                dir: "ltr",
                inputMode: "numeric",
                hint: `${t("numbers.countHint")} ${t("console.products.stockHint")}`,
              })
            )}
            {text("max_per_order", { dir: "ltr", inputMode: "numeric" })}
            {text("low_stock_threshold", { dir: "ltr", inputMode: "numeric" })}
            {weight}
          </div>
        </section>
        <section className="console-panel" aria-label={t("console.products.imagesSection")}>
          <ImagesEditor
            value={images}
            onChange={setImages}
            upload={upload}
            error={serverError("images")}
            readOnly={!canWrite}
          />
        </section>
        <section className="console-panel" aria-labelledby="pf-flags">
          <h2 id="pf-flags">{t("console.products.flagsSection")}</h2>
          {(["is_featured", "is_new"] as const).map((flag) => (
            <div className="console-check" key={flag}>
              <input
                id={`f-${flag}`}
                type="checkbox"
                checked={flags[flag]}
                disabled={!canWrite}
                onChange={(e) => setFlags((f) => ({ ...f, [flag]: e.target.checked }))}
              />
              <label htmlFor={`f-${flag}`}>{t(`console.fields.${flag}`)}</label>
            </div>
          ))}
          {!product ? (
            <div className="console-check">
              <input
                id="f-active"
                type="checkbox"
                checked={flags.active}
                onChange={(e) => setFlags((f) => ({ ...f, active: e.target.checked }))}
              />
              <label htmlFor="f-active">{t("console.products.activeOnCreate")}</label>
            </div>
          ) : null}
        </section>
        {canWrite ? (
          <div className="console-actions">
            <SubmitButton>{product ? t("console.products.save") : t("console.products.create")}</SubmitButton>
            {product && product.active ? (
              <button
                type="button"
                className="button button--danger"
                onClick={() => {
                  setDialogLoaded(true);
                  setConfirming(true);
                }}
              >
                {t("console.products.deactivate")}
              </button>
            ) : null}
            {product && !product.active ? (
              <button type="button" className="button" onClick={() => void setActive(true)}>
                {t("console.products.reactivate")}
              </button>
            ) : null}
            {product ? (
              <button type="button" className="button" onClick={() => void duplicate()}>
                {t("console.productForm.duplicate")}
              </button>
            ) : null}
          </div>
        ) : null}
      </Form>
      {dialogLoaded ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirming}
            title={t("console.products.deactivateTitle", { name: title })}
            confirmLabel={t("console.products.deactivate")}
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              void setActive(false);
            }}
          >
            <p>{t("console.products.deactivateBody")}</p>
          </ConfirmDialog>
        </Suspense>
      ) : null}
    </>
  );
}

/** The weight hint, with the typed grams read back in kilograms as they change. */
function WeightHint({ value }: { value: { value: string | undefined } }) {
  useSignals();
  const t = useT();
  const locale = useLocale();
  const typed = value.value ?? "";
  const grams = /^\d{1,9}$/.test(typed) ? Number(typed) : 0;
  return (
    <>
      {t("console.productForm.weightHint")}
      {grams > 0 ? ` ${t("console.productForm.weightIs", { weight: formatWeight(grams, locale) })}` : null}
    </>
  );
}
