import { useId, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { ApiError } from "../../lib/api/errors";
import { readBulkForm, type BulkForm, type PriceMode, type StockMode } from "../../lib/bulk-edit";
import { countOf } from "../../lib/plural";
import { useLocale, useT } from "../../lib/use-locale";

type Problems = Partial<Record<"price" | "stock" | "form", string>>;

const calls = () => import("../../lib/api/console-catalogue");

/**
 * The products list's bulk edit: one price change (a new price, or up or down by a percentage)
 * and/or one stock change (a count, or units added or removed) for the selected products, sent as
 * one request the backend applies to all of them or to none. Its messages sit by their fields.
 */
export function BulkEditPanel({
  ids,
  onSelectPage,
  onClear,
}: {
  ids: number[];
  onSelectPage: () => void;
  onClear: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const id = useId();
  const [form, setForm] = useState<BulkForm>({ priceMode: "keep", price: "", stockMode: "keep", stock: "" });
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<BulkForm>) => setForm((f) => ({ ...f, ...change }));

  const apply = async () => {
    const read = readBulkForm(ids, form);
    if ("errors" in read) {
      setProblems(Object.fromEntries(Object.entries(read.errors).map(([k, v]) => [k, t(`console.bulkEdit.${v}`)])));
      return;
    }
    setProblems({});
    setBusy(true);
    const toastId = toast.loading(t("console.bulkEdit.applying"));
    try {
      const { bulkEditProducts } = await calls();
      const { data } = await bulkEditProducts(browserApi(locale), read.edit);
      toast.success(countOf(t, locale, "console.bulkEdit.applied", data.updated), { id: toastId });
      onClear();
      await revalidator.revalidate();
    } catch (error) {
      toast.dismiss(toastId);
      if (error instanceof ApiError && error.status === 422) {
        // A nested field ("price.amount") counts as its group's.
        const first = (field: string) =>
          Object.entries(error.errors).find(([key]) => key === field || key.startsWith(`${field}.`))?.[1][0];
        setProblems({
          price: first("price") ?? first("percent") ?? first("value"),
          stock: first("stock") ?? first("delta"),
          form: first("product_ids") ?? (Object.keys(error.errors).length ? undefined : error.message),
        });
      } else handleBrowserError(error, locale, (path) => void navigate(path));
    } finally {
      setBusy(false);
    }
  };

  const error = (field: keyof Problems) =>
    problems[field] ? (
      <p className="field__error" id={`${id}-${field}-error`} role={field === "form" ? "alert" : undefined}>
        {problems[field]}
      </p>
    ) : null;
  const described = (field: keyof Problems) => (problems[field] ? `${id}-${field}-error` : undefined);

  return (
    <section className="console-panel console-bulk" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("console.bulkEdit.title")}</h2>
      <p aria-live="polite">
        <strong>{countOf(t, locale, "console.bulkEdit.selected", ids.length)}</strong>{" "}
        <button type="button" className="button button--ghost" onClick={onSelectPage}>
          {t("console.bulkEdit.selectPage")}
        </button>{" "}
        {ids.length ? (
          <button type="button" className="button button--ghost" onClick={onClear}>
            {t("console.bulkEdit.clear")}
          </button>
        ) : null}
      </p>
      {ids.length ? (
        <form
          className="console-grid"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void apply();
          }}
        >
          <fieldset className="console-bulk__group">
            <legend>{t("console.bulkEdit.price")}</legend>
            <div className="field">
              <label htmlFor={`${id}-price-mode`}>{t("console.bulkEdit.priceMode")}</label>
              <select
                id={`${id}-price-mode`}
                value={form.priceMode}
                onChange={(e) => set({ priceMode: e.target.value as PriceMode })}
              >
                <option value="keep">{t("console.bulkEdit.keep")}</option>
                <option value="set">{t("console.bulkEdit.priceSet")}</option>
                <option value="percent">{t("console.bulkEdit.pricePercent")}</option>
              </select>
            </div>
            {form.priceMode !== "keep" ? (
              <div className="field" data-invalid={problems.price ? "true" : undefined}>
                <label htmlFor={`${id}-price`}>
                  {form.priceMode === "set" ? t("console.bulkEdit.priceAmount") : t("console.bulkEdit.percent")}
                </label>
                <input
                  id={`${id}-price`}
                  dir="ltr"
                  inputMode="decimal"
                  value={form.price}
                  onChange={(e) => set({ price: e.target.value })}
                  aria-invalid={problems.price ? true : undefined}
                  aria-describedby={described("price")}
                />
                {error("price")}
              </div>
            ) : null}
          </fieldset>
          <fieldset className="console-bulk__group">
            <legend>{t("console.bulkEdit.stock")}</legend>
            <div className="field">
              <label htmlFor={`${id}-stock-mode`}>{t("console.bulkEdit.stockMode")}</label>
              <select
                id={`${id}-stock-mode`}
                value={form.stockMode}
                onChange={(e) => set({ stockMode: e.target.value as StockMode })}
              >
                <option value="keep">{t("console.bulkEdit.keep")}</option>
                <option value="set">{t("console.bulkEdit.stockSet")}</option>
                <option value="adjust">{t("console.bulkEdit.stockAdjust")}</option>
              </select>
            </div>
            {form.stockMode !== "keep" ? (
              <div className="field" data-invalid={problems.stock ? "true" : undefined}>
                <label htmlFor={`${id}-stock`}>
                  {form.stockMode === "set" ? t("console.bulkEdit.stockValue") : t("console.bulkEdit.stockDelta")}
                </label>
                <input
                  id={`${id}-stock`}
                  dir="ltr"
                  inputMode="numeric"
                  value={form.stock}
                  onChange={(e) => set({ stock: e.target.value })}
                  aria-invalid={problems.stock ? true : undefined}
                  aria-describedby={described("stock")}
                />
                {error("stock")}
              </div>
            ) : null}
          </fieldset>
          <div className="console-bulk__apply">
            <p className="console-hint">{t("console.bulkEdit.note")}</p>
            {error("form")}
            <button type="submit" className="button button--primary" disabled={busy}>
              {t("console.bulkEdit.apply")}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
