import { getValue, useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/promo-code";
import {
  PROMO_MAX_AMOUNT,
  PROMO_MAX_COUNT,
  type ConsolePromo,
  type PromoCodeInput,
} from "../../../contract/console-promos";
import { formatMinorUnits, readNumber } from "../../../contract/numbers";
import { ConfirmDialog } from "../../components/console/ConfirmDialog";
import { PromoStateBadge } from "../../components/console/PromoStateBadge";
import { FormErrors } from "../../components/form/FormErrors";
import { SubmitButton } from "../../components/form/SubmitButton";
import { TextField } from "../../components/form/TextField";
import { useRouteAction } from "../../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { browserApi } from "../../lib/api/browser";
import {
  createPromoCode,
  getPromoCode,
  pausePromoCode,
  resumePromoCode,
  updatePromoCode,
} from "../../lib/api/console-promos";
import { consoleLoad, consoleLocale, consoleMeta, notFoundResponse } from "../../lib/console";
import { consoleFormat, fromShopLocalInput, promoDiscountLabel, toShopLocalInput } from "../../lib/console-format";
import { FORM_OPTIONS, formRules, type Validator } from "../../lib/forms";
import { numberRule } from "../../lib/input-rules";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) =>
  consoleMeta(args, args.params.id === "new" ? "console.promoCodes.newTitle" : "console.nav.promoCodes");

export async function loader(args: Route.LoaderArgs) {
  const { id } = args.params;
  if (id !== "new" && !/^[1-9]\d{0,15}$/.test(id)) throw notFoundResponse();
  return consoleLoad(
    args,
    async (api) => ({ promo: id === "new" ? null : (await getPromoCode(api, Number(id))).data }),
    { role: "manager" },
  );
}

/** The form holds what was typed; amounts in SAR, times in the shop's time. */
type PromoValues = {
  code: string;
  discount_type: string;
  value: string;
  max_discount: string;
  starts_at: string;
  ends_at: string;
  min_order: string;
  usage_limit: string;
  per_user_limit: string;
};

const sar = (halalas: number | null) => (halalas === null ? "" : formatMinorUnits(halalas));

function initialValues(p: ConsolePromo | null): PromoValues {
  return {
    code: p?.code ?? "",
    discount_type: String(p?.discount_type ?? 1),
    value: p ? (p.discount_type === 2 ? sar(p.value) : String(p.value)) : "",
    max_discount: sar(p?.max_discount ?? null),
    starts_at: toShopLocalInput(p?.starts_at ?? null),
    ends_at: toShopLocalInput(p?.ends_at ?? null),
    min_order: p ? sar(p.min_order) : "0",
    usage_limit: p?.usage_limit === null || !p ? "" : String(p.usage_limit),
    per_user_limit: p?.per_user_limit === null || !p ? "" : String(p.per_user_limit),
  };
}

/** What was typed, read by the contract's one number reader (Arabic-Indic digits, "٫", "1,299.50"). */
const RIYALS = { decimals: 2, min: 0, max: PROMO_MAX_AMOUNT };
const COUNT = { decimals: 0, min: 0, max: PROMO_MAX_COUNT };
// A percentage's ceiling of 100 is the server's rule, worded there (routes/admin/promos.ts).
const PERCENT = { decimals: 0, min: 1, max: PROMO_MAX_AMOUNT };
const read = (text: string, rules: typeof RIYALS) => {
  const reading = readNumber(text, rules);
  return reading.ok ? reading.value : null;
};
const halalas = (text: string) => read(text, RIYALS) ?? 0;
const count = (text: string) => read(text, COUNT);

/** What the API takes: halalas, whole counts, ISO moments. The fields' rules made every number readable. */
function toInput(values: PromoValues): PromoCodeInput {
  const fixed = values.discount_type === "2";
  return {
    code: values.code.trim(),
    discount_type: fixed ? 2 : 1,
    value: fixed ? halalas(values.value) : (read(values.value, PERCENT) ?? 0),
    max_discount: read(values.max_discount, RIYALS),
    starts_at: fromShopLocalInput(values.starts_at),
    ends_at: fromShopLocalInput(values.ends_at),
    min_order: halalas(values.min_order),
    usage_limit: count(values.usage_limit),
    per_user_limit: count(values.per_user_limit),
  };
}

const INTENTS = ["save", "pause", "resume"] as const;

/** Saves the code as typed (a new one is created), or pauses or resumes it; the backend checks each. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  const intent = intentOf(form, INTENTS);
  const api = browserApi(locale);
  const id = params.id === "new" ? null : Number(params.id);
  switch (intent) {
    case "save": {
      const values = Object.fromEntries(
        (Object.keys(initialValues(null)) as (keyof PromoValues)[]).map((k) => [k, textOf(form, k)]),
      ) as PromoValues;
      const input = toInput(values);
      return answer(locale, intent, () =>
        id === null ? createPromoCode(api, input) : updatePromoCode(api, id, input),
      );
    }
    case "pause":
    case "resume":
      if (id === null) return unknownIntent(locale);
      return answer(locale, intent, () => (intent === "resume" ? resumePromoCode(api, id) : pausePromoCode(api, id)));
    default:
      return unknownIntent(locale);
  }
}

/** A promo code (managers and owners): create or edit it, see its usage, pause or resume it. */
export default function ConsolePromoCode({ loaderData }: Route.ComponentProps) {
  // A new code's page becomes its own page once saved: the form starts again from what was saved.
  return <PromoCodePage key={loaderData.promo?.id ?? "new"} promo={loaderData.promo} />;
}

function PromoCodePage({ promo }: { promo: ConsolePromo | null }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const f = consoleFormat(locale);
  const rules = useMemo(() => formRules(t), [t]);
  const [pausing, setPausing] = useState(false);
  const [form, { Form, Field }] = useForm<PromoValues>({ ...FORM_OPTIONS, initialValues: initialValues(promo) });
  const saving = useRouteAction(form);
  const { serverErrors, serverMessage } = saving;
  const switching = useRouteAction();
  const label = (field: keyof PromoValues) => t(`console.fields.${field === "code" ? "promo_code" : field}`);
  const whole = (name: string): Validator => numberRule(t, name, COUNT);
  const amount = (name: string): Validator => numberRule(t, name, RIYALS);
  // The value is a percentage or riyals, as the type chosen says.
  const value = numberRule(t, label("value"), () => (getValue(form, "discount_type") === "2" ? RIYALS : PERCENT));

  const save = (values: PromoValues) =>
    saving.submit<ConsolePromo>("save", values, {
      loading: t("console.saving"),
      success: () => t(promo ? "console.promoCodes.saved" : "console.promoCodes.created"),
      // A new code's page becomes its own page once saved.
      onDone: (saved) =>
        promo ? undefined : void navigate(to(`/admin/promo-codes/${saved.value.id}`), { replace: true }),
    });

  const setActive = (active: boolean) =>
    void switching.submit(
      active ? "resume" : "pause",
      {},
      {
        loading: t("console.saving"),
        success: () => t(active ? "console.promoCodes.resumed" : "console.promoCodes.paused"),
      },
    );

  const labels = Object.fromEntries(
    (Object.keys(initialValues(null)) as (keyof PromoValues)[]).map((k) => [k, label(k)]),
  );
  const number = { inputMode: "decimal" as const, dir: "ltr", autoComplete: "off" };

  return (
    <>
      <p>
        <Link to={to("/admin/promo-codes")}>{t("console.promoCodes.back")}</Link>
      </p>
      <div className="console-titlebar">
        <h1>
          {promo ? (
            <>
              {t("console.promoCodes.editTitle", { code: "" })}
              <bdi dir="ltr">{promo.code}</bdi>
            </>
          ) : (
            t("console.promoCodes.newTitle")
          )}
        </h1>
        {promo ? <PromoStateBadge state={promo.state} /> : null}
      </div>

      {promo ? (
        <section className="console-panel" aria-labelledby="promo-usage">
          <h2 id="promo-usage">{t("console.promoCodes.usage")}</h2>
          <ul className="console-stats">
            <li className="console-stat">
              <div className="console-stat__label">{t("console.promoCodes.used")}</div>
              <div className="console-stat__value">
                {promo.usage_limit === null
                  ? f.number(promo.used_count)
                  : t("console.promoCodes.usedOf", {
                      used: f.number(promo.used_count),
                      limit: f.number(promo.usage_limit),
                    })}
              </div>
            </li>
            <li className="console-stat">
              <div className="console-stat__label">{t("console.promoCodes.redemptions")}</div>
              <div className="console-stat__value">{f.number(promo.redemptions)}</div>
            </li>
            <li className="console-stat">
              <div className="console-stat__label">{t("console.promoCodes.discountGiven")}</div>
              <div className="console-stat__value">{f.money(promo.discount_total)}</div>
            </li>
            <li className="console-stat">
              <div className="console-stat__label">{t("console.promoCodes.discount")}</div>
              <div className="console-stat__value console-stat__value--text">{promoDiscountLabel(promo, t, f)}</div>
            </li>
          </ul>
          <div className="console-actions">
            {promo.active ? (
              <button type="button" className="button button--danger" onClick={() => setPausing(true)}>
                {t("console.promoCodes.pause")}
              </button>
            ) : (
              <button type="button" className="button" onClick={() => setActive(true)}>
                {t("console.promoCodes.resume")}
              </button>
            )}
          </div>
        </section>
      ) : null}

      <section className="console-panel" aria-labelledby="promo-form">
        <h2 id="promo-form">{promo ? t("console.actions.edit") : t("console.promoCodes.newTitle")}</h2>
        <Form className="form promo-form" onSubmit={save} shouldFocus={false} aria-labelledby="promo-form">
          <FormErrors
            form={form}
            messages={rules.messages}
            serverErrors={serverErrors}
            serverMessage={serverMessage}
            labels={labels}
          />
          <div className="console-grid">
            <Field
              name="code"
              validate={[
                rules.required(label("code")),
                rules.schema((v) => v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{3,40}$/, t("form.fallback")))),
              ]}
            >
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("code")}
                  dir="ltr"
                  autoComplete="off"
                  required
                />
              )}
            </Field>
            <Field name="discount_type">
              {(field, props) => (
                <div className="field">
                  <label htmlFor="f-discount_type">{label("discount_type")}</label>
                  <select {...props} id="f-discount_type" value={field.value.value ?? "1"}>
                    <option value="1">{t("console.promoCodes.percent")}</option>
                    <option value="2">{t("console.promoCodes.fixed")}</option>
                  </select>
                </div>
              )}
            </Field>
            <Field name="value" validate={[rules.required(label("value")), value]}>
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("value")}
                  hint={t("console.promoCodes.valueHint")}
                  {...number}
                  required
                />
              )}
            </Field>
            <Field name="max_discount" validate={[amount(label("max_discount"))]}>
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("max_discount")}
                  hint={t("console.promoCodes.maxDiscountHint")}
                  {...number}
                />
              )}
            </Field>
            <Field name="min_order" validate={[amount(label("min_order"))]}>
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("min_order")}
                  hint={t("console.promoCodes.minOrderHint")}
                  {...number}
                />
              )}
            </Field>
            <Field name="starts_at">
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("starts_at")}
                  hint={t("console.promoCodes.timesHint")}
                  type="datetime-local"
                  dir="ltr"
                />
              )}
            </Field>
            <Field name="ends_at">
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("ends_at")}
                  hint={t("console.promoCodes.timesHint")}
                  type="datetime-local"
                  dir="ltr"
                />
              )}
            </Field>
            <Field name="usage_limit" validate={[whole(label("usage_limit"))]}>
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("usage_limit")}
                  hint={t("console.promoCodes.limitHint")}
                  inputMode="numeric"
                  dir="ltr"
                  autoComplete="off"
                />
              )}
            </Field>
            <Field name="per_user_limit" validate={[whole(label("per_user_limit"))]}>
              {(field, props) => (
                <TextField
                  form={form}
                  field={field}
                  props={props}
                  label={label("per_user_limit")}
                  hint={t("console.promoCodes.perUserHint")}
                  inputMode="numeric"
                  dir="ltr"
                  autoComplete="off"
                />
              )}
            </Field>
          </div>
          <SubmitButton>{promo ? t("console.promoCodes.save") : t("console.promoCodes.create")}</SubmitButton>
        </Form>
      </section>

      {promo ? (
        <ConfirmDialog
          open={pausing}
          title={t("console.promoCodes.pauseTitle", { code: promo.code })}
          confirmLabel={t("console.promoCodes.pause")}
          onCancel={() => setPausing(false)}
          onConfirm={() => {
            setPausing(false);
            setActive(false);
          }}
        >
          <p>{t("console.promoCodes.pauseBody")}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
