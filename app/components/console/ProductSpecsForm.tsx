import type { ConsoleAttribute } from "../../../contract/console-catalogue-shapes";
import { useLocale, useT } from "../../lib/use-locale";
import { SubmitButton } from "../form/SubmitButton";
import { useRouteAction, type ActionFields } from "../form/useRouteAction";

/**
 * A product's typed specifications in the console, below its form: one field per attribute of its
 * category, of the attribute's type (a number with its unit, a list of the options, yes or no,
 * text in both languages), saved through the page's `attributes` action. An empty field clears the
 * value. Read-only for support.
 */
export function ProductSpecsForm({ attributes, canWrite }: { attributes: ConsoleAttribute[]; canWrite: boolean }) {
  const t = useT();
  const locale = useLocale();
  const { submit, busy, serverErrors, serverMessage } = useRouteAction();
  const errorOf = (code: string) => serverErrors.find((e) => e.type === `attributes.${code}`)?.message;
  if (attributes.length === 0) return null;
  const label = (a: { label_en: string; label_ar: string }) => (locale === "ar" ? a.label_ar : a.label_en);

  return (
    <section className="console-panel" aria-labelledby="product-specs-title" aria-describedby="product-specs-hint">
      <h2 id="product-specs-title">{t("console.productSpecs.title")}</h2>
      <p className="console-hint" id="product-specs-hint">
        {t("console.productSpecs.hint")}
      </p>
      {serverMessage ? (
        <p className="field__error" role="alert">
          {serverMessage}
        </p>
      ) : null}
      <form
        className="form product-specs"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const fields: ActionFields = {};
          for (const [name, value] of data) if (typeof value === "string") fields[name] = value;
          void submit("attributes", fields, {
            loading: t("console.productSpecs.saving"),
            success: () => t("console.productSpecs.saved"),
          });
        }}
      >
        <fieldset className="product-specs__fields" disabled={!canWrite || busy}>
          <legend className="visually-hidden">{t("console.productSpecs.title")}</legend>
          {attributes.map((a) => {
            const id = `spec-${a.code}`;
            const error = errorOf(a.code);
            const described = error ? `${id}-error` : undefined;
            const unit = locale === "ar" ? a.unit_ar : a.unit_en;
            // Its variants give its values (a phone's storage): shown, edited with the variants.
            if (a.from_variants)
              return (
                <div className="field" key={a.code} data-from-variants={a.code}>
                  <p className="product-specs__given" aria-describedby={`${id}-hint`}>
                    <strong>
                      {label(a)}
                      {unit ? ` (${unit})` : ""}
                    </strong>{" "}
                    <bdi>
                      {a.from_variants
                        .map((v) => {
                          const option = a.options.find((o) => o.code === v);
                          return option ? label(option) : String(v);
                        })
                        .join(" · ")}
                    </bdi>
                  </p>
                  <p className="console-hint" id={`${id}-hint`}>
                    {t("console.productSpecs.fromVariants")}
                  </p>
                </div>
              );
            return (
              <div className="field" key={a.code} data-invalid={error ? "true" : undefined}>
                <input type="hidden" name={`type:${a.code}`} value={a.type} />
                {a.type === "text" ? (
                  <fieldset className="product-specs__pair" aria-describedby={described}>
                    <legend>{label(a)}</legend>
                    {(["en", "ar"] as const).map((lang) => (
                      <div className="field" key={lang}>
                        <label htmlFor={`${id}-${lang}`}>
                          {t(lang === "en" ? "console.productSpecs.english" : "console.productSpecs.arabic")}
                        </label>
                        <input
                          id={`${id}-${lang}`}
                          name={`${lang}:${a.code}`}
                          lang={lang}
                          dir={lang === "ar" ? "rtl" : "ltr"}
                          maxLength={200}
                          defaultValue={typeof a.value === "object" && a.value !== null ? a.value[lang] : ""}
                        />
                      </div>
                    ))}
                  </fieldset>
                ) : (
                  <>
                    <label htmlFor={id}>
                      {label(a)}
                      {unit ? ` (${unit})` : ""}
                    </label>
                    {a.type === "number" ? (
                      <input
                        id={id}
                        name={`value:${a.code}`}
                        inputMode="decimal"
                        dir="ltr"
                        defaultValue={typeof a.value === "number" ? String(a.value) : ""}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={described}
                      />
                    ) : (
                      <select
                        id={id}
                        name={`value:${a.code}`}
                        defaultValue={a.value === null ? "" : String(a.value)}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={described}
                      >
                        <option value="">{t("console.productSpecs.notSet")}</option>
                        {a.type === "bool" ? (
                          <>
                            <option value="true">{t("product.specYes")}</option>
                            <option value="false">{t("product.specNo")}</option>
                          </>
                        ) : (
                          a.options.map((o) => (
                            <option key={o.code} value={o.code}>
                              {label(o)}
                            </option>
                          ))
                        )}
                      </select>
                    )}
                  </>
                )}
                {error ? (
                  <p className="field__error" id={described}>
                    {error}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>
        {canWrite ? <SubmitButton disabled={busy}>{t("console.productSpecs.save")}</SubmitButton> : null}
      </form>
    </section>
  );
}
