import { useId, useRef, useState } from "react";
import type { Spec } from "../../../contract/console-catalogue-shapes";
import { MEDIA_MAX_BYTES, MEDIA_TYPES, PRODUCT_LIMITS } from "../../../contract/console-catalogue-shapes";
import { LOCALES } from "../../lib/locales";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * Specifications as label/value rows the operator adds and removes, in one language's direction.
 * Focus moves to the new row's label on add, and to the add button when a row is removed.
 */
export function SpecsEditor({
  lang,
  legend,
  value,
  onChange,
  error,
  readOnly = false,
}: {
  lang: "en" | "ar";
  legend: string;
  value: Spec[];
  onChange: (next: Spec[]) => void;
  error?: string;
  /** Support reads the product: the rows show, nothing changes them. */
  readOnly?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  // The page's words (legend, hint, message) read in the page's direction, the rows in the column's.
  const ui = { lang: locale, dir: LOCALES[locale].dir };
  const id = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const [focusRow, setFocusRow] = useState<number | null>(null);
  const dir = lang === "ar" ? "rtl" : "ltr";
  const set = (i: number, key: keyof Spec, text: string) =>
    onChange(value.map((s, k) => (k === i ? { ...s, [key]: text } : s)));
  return (
    <fieldset className="console-specs" dir={dir} lang={lang} aria-describedby={error ? `${id}-error` : undefined}>
      <legend {...ui}>{legend}</legend>
      {value.length === 0 ? (
        <p className="console-hint" {...ui}>
          {t("console.products.noSpecs")}
        </p>
      ) : null}
      <ol className="console-specs__rows">
        {value.map((spec, i) => (
          <li key={i} className="console-specs__row">
            <label className="visually-hidden" htmlFor={`${id}-l${i}`}>
              {t("console.products.specLabel", { n: i + 1 })}
            </label>
            <input
              id={`${id}-l${i}`}
              value={spec.label}
              maxLength={PRODUCT_LIMITS.specLabel}
              placeholder={t("console.products.specLabelPlaceholder")}
              readOnly={readOnly}
              onChange={(e) => set(i, "label", e.target.value)}
              ref={(el) => {
                if (el && focusRow === i) {
                  el.focus();
                  setFocusRow(null);
                }
              }}
            />
            <label className="visually-hidden" htmlFor={`${id}-v${i}`}>
              {t("console.products.specValue", { n: i + 1 })}
            </label>
            <input
              id={`${id}-v${i}`}
              value={spec.value}
              maxLength={PRODUCT_LIMITS.specValue}
              placeholder={t("console.products.specValuePlaceholder")}
              readOnly={readOnly}
              onChange={(e) => set(i, "value", e.target.value)}
            />
            <button
              type="button"
              className="button button--ghost"
              hidden={readOnly}
              aria-label={t("console.products.removeSpec", { n: i + 1 })}
              onClick={() => {
                onChange(value.filter((_, k) => k !== i));
                addRef.current?.focus();
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      {error ? (
        <p className="field__error" id={`${id}-error`} {...ui}>
          {error}
        </p>
      ) : null}
      {value.length < PRODUCT_LIMITS.specs && !readOnly ? (
        <button
          ref={addRef}
          type="button"
          className="button"
          {...ui}
          onClick={() => {
            onChange([...value, { label: "", value: "" }]);
            setFocusRow(value.length);
          }}
        >
          {t("console.products.addSpec")}
        </button>
      ) : null}
    </fieldset>
  );
}

/**
 * The product's images: previews of the uploaded ones with a remove button each, and a file input
 * that checks type and size before uploading (the backend checks again, by the file's bytes).
 */
export function ImagesEditor({
  value,
  onChange,
  upload,
  error,
  readOnly = false,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  upload: (file: File) => Promise<string | null>;
  error?: string;
  readOnly?: boolean;
}) {
  const t = useT();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const shown = problem || error;
  const choose = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setProblem("");
    if (!(MEDIA_TYPES as readonly string[]).includes(file.type)) return setProblem(t("console.products.imageType"));
    if (file.size > MEDIA_MAX_BYTES)
      return setProblem(t("console.products.imageTooLarge", { mb: MEDIA_MAX_BYTES / 1024 / 1024 }));
    setBusy(true);
    try {
      const url = await upload(file);
      if (url) onChange([...value, url]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="console-images" aria-describedby={shown ? `${id}-error` : `${id}-hint`}>
      <legend>{t("console.fields.images")}</legend>
      <ul className="console-images__list" role="list">
        {value.map((src, i) => (
          <li key={`${i}-${src}`}>
            <img src={src} alt={t("console.products.imageN", { n: i + 1 })} width={96} height={96} />
            <button
              type="button"
              className="button button--ghost"
              hidden={readOnly}
              onClick={() => onChange(value.filter((_, k) => k !== i))}
            >
              {t("console.products.removeImage", { n: i + 1 })}
            </button>
          </li>
        ))}
      </ul>
      {value.length < PRODUCT_LIMITS.images && !readOnly ? (
        <div className="field">
          <label htmlFor={`${id}-file`}>{t("console.products.uploadImage")}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept={MEDIA_TYPES.join(",")}
            disabled={busy}
            onChange={(e) => {
              void choose(e.target.files);
              e.target.value = "";
            }}
          />
        </div>
      ) : null}
      <p className="console-hint" id={`${id}-hint`}>
        {busy
          ? t("console.products.uploading")
          : t("console.products.imageHint", { mb: MEDIA_MAX_BYTES / 1024 / 1024 })}
      </p>
      {shown ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {shown}
        </p>
      ) : null}
    </fieldset>
  );
}
