import { getValue, setValue, useForm } from "@modular-forms/react";
import { useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { Route } from "./+types/inventory";
import {
  ADJUSTMENT_REASONS,
  CONTENT_LIMITS,
  type AdjustmentReason,
  type InventoryAdjustment,
  type StockProduct,
} from "../../../contract/console-content";
import { readCount } from "../../../contract/numbers";
import { DataTable, type Column } from "../../components/console/DataTable";
import { Link } from "../../lib/link";
import { FormErrors } from "../../components/form/FormErrors";
import { SubmitButton } from "../../components/form/SubmitButton";
import { TextField } from "../../components/form/TextField";
import { useRouteAction } from "../../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { listParams } from "../../lib/api/console";
import { adjustStock, findStockProducts, listAdjustments, listLowStock } from "../../lib/api/console-content";
import { listStockAlertDemand } from "../../lib/api/stock-alerts";
import type { StockAlertDemand } from "../../../contract/stock-alerts";
import { consoleLoad, consoleLocale, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { FORM_OPTIONS, formRules, type Validator } from "../../lib/forms";
import { numberRule } from "../../lib/input-rules";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.inventory");

/** The low-stock table shows this many, fewest first; the ledger below pages through everything. */
const LOW_STOCK_SHOWN = 50;
/** The waiting demand: a page of the most wanted first, sorted and paged by parameters of its own. */
const WAITING_SHOWN = 20;
const WAITING_PARAMS = { sort: "wsort", dir: "wdir", page: "wpage" };

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  return consoleLoad(
    args,
    async (api) => {
      const waitingParam = (name: string) => url.searchParams.get(name) ?? undefined;
      const [low, ledger, waiting] = await Promise.all([
        listLowStock(api, { per_page: LOW_STOCK_SHOWN, sort: "stock", dir: "asc" }),
        listAdjustments(api, listParams(url, ["product_id", "reason"])),
        // The waiting demand sorts and pages by its own parameters, beside the ledger's.
        listStockAlertDemand(api, {
          per_page: WAITING_SHOWN,
          sort: waitingParam(WAITING_PARAMS.sort) ?? "waiting",
          dir: waitingParam(WAITING_PARAMS.dir) ?? "desc",
          page: waitingParam(WAITING_PARAMS.page),
        }),
      ]);
      return {
        low: low.data,
        lowMeta: low.meta,
        ledger: ledger.data,
        ledgerMeta: ledger.meta,
        waiting: waiting.data,
        waitingMeta: waiting.meta,
      };
    },
    { role: "manager" },
  );
}

/** Records a delivery, damage or a count (the ledger's `adjust`); counts as typed, read by the contract's reader. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  if (intentOf(form, ["adjust"] as const) !== "adjust") return unknownIntent(locale);
  const reason = textOf(form, "reason") as AdjustmentReason;
  const number = (name: string) => {
    const reading = readCount(textOf(form, name), { min: -CONTENT_LIMITS.delta });
    return reading.ok ? reading.value : null;
  };
  return answer(locale, "adjust", () =>
    adjustStock(browserApi(locale), {
      product_id: Number(textOf(form, "product_id")) || 0,
      variant_id: Number(textOf(form, "variant_id")) || null,
      reason,
      delta: reason === "count" ? null : number("delta"),
      counted: reason === "count" ? number("counted") : null,
      note: textOf(form, "note").trim() || null,
    }),
  );
}

type AdjustValues = {
  product_id: string;
  variant_id: string;
  reason: string;
  delta: string;
  counted: string;
  note: string;
};
const EMPTY: AdjustValues = { product_id: "", variant_id: "", reason: "received", delta: "", counted: "", note: "" };

/** Inventory (managers and owners): what runs low, recording deliveries, damage and counts, and the ledger. */
export default function ConsoleInventory({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  const locale = useLocale();
  const navigate = useNavigate();
  const f = consoleFormat(locale);
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<AdjustValues>({ ...FORM_OPTIONS, initialValues: EMPTY });
  const adjusting = useRouteAction(form);
  const { serverErrors, serverMessage } = adjusting;
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<StockProduct[] | null>(null);
  const [chosen, setChosen] = useState<StockProduct | null>(null);
  const formRef = useRef<HTMLElement>(null);
  const name = (p: { name_en: string; name_ar: string }) => (locale === "ar" ? p.name_ar : p.name_en);
  const label = (field: keyof AdjustValues) => t(`console.fields.${field}`);
  const counting = getValue(form, "reason") === "count";

  const choose = (p: StockProduct) => {
    setChosen(p);
    setFound(null);
    setValue(form, "product_id", String(p.id));
    setValue(form, "variant_id", String(p.variant_id));
    document.getElementById("f-reason")?.focus();
  };

  const search = async () => {
    if (!query.trim()) return;
    try {
      const res = await findStockProducts(browserApi(locale), query.trim());
      setFound(res.data);
      // An exact SKU is the product meant: chosen at once.
      const exact = res.data.find((p) => p.sku.toLowerCase() === query.trim().toLowerCase());
      if (exact) choose(exact);
    } catch (error) {
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  // Counts as typed (Arabic-Indic digits, "1,200"), read by the contract's one number reader.
  const whole = (name: string, signed: boolean): Validator =>
    numberRule(t, name, { decimals: 0, min: signed ? -CONTENT_LIMITS.delta : 0, max: CONTENT_LIMITS.delta });

  const record = (values: AdjustValues) =>
    adjusting.submit<InventoryAdjustment>("adjust", values, {
      loading: t("console.saving"),
      success: (saved) => t("console.inventory.recorded", { stock: f.number(saved.value.stock_after) }),
      onDone: (saved) => {
        setValue(form, "delta", "");
        setValue(form, "counted", "");
        setValue(form, "note", "");
        setChosen((p) => (p ? { ...p, stock: saved.value.stock_after } : p));
      },
    });

  const lowColumns: Column<StockProduct>[] = [
    { label: t("console.fields.sku"), cell: (r) => <bdi dir="ltr">{r.sku}</bdi> },
    { label: t("console.inventory.product"), cell: (r) => <bdi>{name(r)}</bdi> },
    { label: t("console.fields.stock"), numeric: true, cell: (r) => f.number(r.stock) },
    { label: t("console.fields.low_stock_threshold"), numeric: true, cell: (r) => f.number(r.low_stock_threshold) },
    {
      label: t("console.inventory.actions"),
      cell: (r) => (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => choose(r)}
          aria-label={t("console.inventory.adjustOf", { name: name(r) })}
        >
          {t("console.inventory.adjust")}
        </button>
      ),
    },
  ];

  const waitingColumns: Column<StockAlertDemand>[] = [
    { label: t("console.fields.sku"), cell: (r) => <bdi dir="ltr">{r.sku}</bdi> },
    {
      label: t("console.inventory.product"),
      cell: (r) => (
        <Link to={to(`/admin/products/${r.product_id}`)}>
          <bdi>{name(r)}</bdi>
        </Link>
      ),
    },
    { label: t("console.stockAlerts.waiting"), sort: "waiting", numeric: true, cell: (r) => f.number(r.waiting) },
    { label: t("console.stockAlerts.email"), sort: "email", numeric: true, cell: (r) => f.number(r.email) },
    { label: t("console.stockAlerts.sms"), sort: "sms", numeric: true, cell: (r) => f.number(r.sms) },
    { label: t("console.fields.stock"), sort: "stock", numeric: true, cell: (r) => f.number(r.stock) },
    { label: t("console.stockAlerts.since"), sort: "oldest", cell: (r) => f.moment(r.oldest) },
    {
      label: t("console.inventory.actions"),
      cell: (r) => (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => choose({ ...r, id: r.product_id, low_stock_threshold: 0 })}
          aria-label={t("console.inventory.adjustOf", { name: name(r) })}
        >
          {t("console.inventory.adjust")}
        </button>
      ),
    },
  ];

  const ledgerColumns: Column<InventoryAdjustment>[] = [
    { label: t("console.inventory.when"), sort: "created_at", cell: (r) => f.moment(r.created_at) },
    {
      label: t("console.inventory.product"),
      cell: (r) => (
        <>
          <bdi>{name(r)}</bdi>{" "}
          <bdi dir="ltr" className="console-hint">
            {r.sku}
          </bdi>
        </>
      ),
    },
    {
      label: t("console.fields.reason"),
      sort: "reason",
      cell: (r) =>
        r.reason === "sale" || r.reason === "released"
          ? t(`console.ledger.${r.reason}`)
          : t(`console.inventory.reasons.${r.reason}`),
    },
    {
      label: t("console.fields.delta"),
      sort: "delta",
      numeric: true,
      cell: (r) => <bdi dir="ltr">{`${r.delta > 0 ? "+" : ""}${f.number(r.delta)}`}</bdi>,
    },
    { label: t("console.inventory.stockAfter"), numeric: true, cell: (r) => f.number(r.stock_after) },
    {
      label: t("console.fields.note"),
      cell: (r) =>
        r.order_number ? (
          <Link to={to(`/admin/orders/${r.order_number}`)} className="console-nowrap">
            {t("console.ledger.order", { number: r.order_number })}
          </Link>
        ) : r.note ? (
          <bdi>{r.note}</bdi>
        ) : (
          "—"
        ),
    },
    {
      label: t("console.inventory.who"),
      // Staff by name (their email is the audit log's); a sale is the customer's doing, a release
      // the order's (its page says who cancelled it).
      cell: (r) =>
        r.reason === "sale" ? (
          t("console.ledger.customer")
        ) : r.source === "order" ? (
          "—"
        ) : (
          <bdi>{r.staff_name ?? r.staff_email ?? "—"}</bdi>
        ),
    },
  ];

  return (
    <>
      <h1>{t("console.nav.inventory")}</h1>

      <section className="console-panel" aria-labelledby="low-stock">
        <h2 id="low-stock">{t("console.inventory.lowStock")}</h2>
        <p className="console-hint">{t("console.inventory.lowStockHint")}</p>
        <DataTable
          caption={t("console.inventory.lowStock")}
          columns={lowColumns}
          rows={loaderData.low}
          meta={{ ...loaderData.lowMeta, last_page: 1 }}
          rowKey={(r) => r.variant_id}
          empty={t("console.inventory.lowStockEmpty")}
        />
      </section>

      <section className="console-panel" aria-labelledby="stock-waiting">
        <h2 id="stock-waiting">{t("console.stockAlerts.title")}</h2>
        <p className="console-hint">{t("console.stockAlerts.hint")}</p>
        <DataTable
          caption={t("console.stockAlerts.title")}
          columns={waitingColumns}
          rows={loaderData.waiting}
          meta={loaderData.waitingMeta}
          rowKey={(r) => r.variant_id}
          empty={t("console.stockAlerts.empty")}
          params={WAITING_PARAMS}
        />
      </section>

      <section className="console-panel" aria-labelledby="adjust" ref={formRef}>
        <h2 id="adjust">{t("console.inventory.adjustTitle")}</h2>
        <div className="console-filters" role="search">
          <div className="field">
            <label htmlFor="stock-find">{t("console.inventory.find")}</label>
            <input
              id="stock-find"
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  void search();
                }
              }}
            />
          </div>
          <button type="button" className="button" onClick={() => void search()}>
            {t("console.inventory.findButton")}
          </button>
        </div>
        {found ? (
          found.length === 0 ? (
            <p role="status">{t("console.inventory.noMatch")}</p>
          ) : (
            <ul className="stock-choices" aria-label={t("console.inventory.matches")}>
              {found.map((p) => (
                <li key={p.variant_id}>
                  <button type="button" className="button button--ghost" onClick={() => choose(p)}>
                    <bdi dir="ltr">{p.sku}</bdi> · <bdi>{name(p)}</bdi> ·{" "}
                    {t("console.inventory.inStock", { stock: f.number(p.stock) })}
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : null}
        <p role="status" className="stock-chosen">
          {chosen
            ? t("console.inventory.chosen", { name: name(chosen), sku: chosen.sku, stock: f.number(chosen.stock) })
            : t("console.inventory.noneChosen")}
        </p>
        <Form className="form" onSubmit={record} shouldFocus={false} aria-labelledby="adjust">
          <FormErrors
            form={form}
            messages={rules.messages}
            serverErrors={serverErrors}
            serverMessage={serverMessage}
            labels={{
              product_id: t("console.inventory.product"),
              variant_id: t("console.inventory.product"),
              reason: label("reason"),
              delta: label("delta"),
              counted: label("counted"),
              note: label("note"),
            }}
          />
          <Field name="product_id" validate={[rules.required(t("console.inventory.product"))]}>
            {(field, props) => <input {...props} type="hidden" value={field.value.value ?? ""} />}
          </Field>
          <Field name="variant_id">
            {(field, props) => <input {...props} type="hidden" value={field.value.value ?? ""} />}
          </Field>
          <div className="console-grid">
            <Field name="reason">
              {(field, props) => (
                <div className="field">
                  <label htmlFor="f-reason">{label("reason")}</label>
                  <select {...props} id="f-reason" value={field.value.value ?? "received"}>
                    {ADJUSTMENT_REASONS.map((r) => (
                      <option key={r} value={r}>
                        {t(`console.inventory.reasons.${r}`)}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </Field>
            {counting ? (
              <Field
                key="counted"
                name="counted"
                validate={[rules.required(label("counted")), whole(label("counted"), false)]}
              >
                {(field, props) => (
                  <TextField
                    form={form}
                    field={field}
                    props={props}
                    label={label("counted")}
                    hint={`${t("console.inventory.countedHint")} ${t("numbers.digitsHint")}`}
                    inputMode="numeric"
                    dir="ltr"
                    autoComplete="off"
                    required
                  />
                )}
              </Field>
            ) : (
              <Field key="delta" name="delta" validate={[rules.required(label("delta")), whole(label("delta"), true)]}>
                {(field, props) => (
                  <TextField
                    form={form}
                    field={field}
                    props={props}
                    label={label("delta")}
                    hint={`${t("console.inventory.deltaHint")} ${t("numbers.digitsHint")}`}
                    inputMode="numeric"
                    dir="ltr"
                    autoComplete="off"
                    required
                  />
                )}
              </Field>
            )}
            <Field name="note" validate={[rules.maxLength(label("note"), CONTENT_LIMITS.note)]}>
              {(field, props) => <TextField form={form} field={field} props={props} label={label("note")} />}
            </Field>
          </div>
          <SubmitButton>{t("console.inventory.record")}</SubmitButton>
        </Form>
      </section>

      <section className="console-panel" aria-labelledby="ledger">
        <h2 id="ledger">{t("console.inventory.ledger")}</h2>
        <DataTable
          caption={t("console.inventory.ledger")}
          columns={ledgerColumns}
          rows={loaderData.ledger}
          meta={loaderData.ledgerMeta}
          rowKey={(r) => `${r.source}-${r.id}`}
          empty={t("console.inventory.ledgerEmpty")}
        />
      </section>
    </>
  );
}
