import { useForm } from "@modular-forms/react";
import { useEffect, useMemo, useRef } from "react";
import { useNavigate } from "react-router";
import type { Order } from "../../../contract/orders";
import { FormErrors } from "../form/FormErrors";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useRouteAction } from "../form/useRouteAction";
import { FORM_OPTIONS, formRules } from "../../lib/forms";
import { toLatinDigits } from "../../lib/phone-text";
import { useT } from "../../lib/use-locale";

/**
 * Cash on delivery on the shop's page: the code texted to the delivery mobile confirms the order
 * (the backend sent it when the page started). Confirmed, the shopper goes to the order's page
 * (`next`); "Send a new code" starts the page again (`onResend`), which the backend throttles.
 */
export function CodForm(props: { paymentId: string; message: string; next: string; onResend: () => void }) {
  const t = useT();
  const rules = useMemo(() => formRules(t), [t]);
  const navigate = useNavigate();
  const codeLabel = t("payment.cod.code");
  const [codeForm, code] = useForm<{ otp: string }>({ ...FORM_OPTIONS, initialValues: { otp: "" } });
  const confirming = useRouteAction(codeForm);
  const codeRef = useRef<{ focus(): void } | null>(null);

  // The code is the one thing to type here: it has the focus from the start.
  useEffect(() => {
    codeRef.current?.focus();
  }, []);

  const confirm = (values: { otp: string }) =>
    confirming.submit<Order>(
      "cod-otp",
      { payment_id: props.paymentId, otp: values.otp },
      { loading: t("payment.cod.confirming"), onDone: () => void navigate(props.next, { replace: true }) },
    );

  return (
    <div className="stc-pay cod-confirm">
      <p className="muted">{t("payment.cod.lead")}</p>
      <code.Form className="form stc-pay__form" onSubmit={confirm} shouldFocus={false}>
        <p className="notice" role="status">
          {props.message}
        </p>
        <FormErrors
          form={codeForm}
          messages={rules.messages}
          serverErrors={confirming.serverErrors}
          serverMessage={confirming.serverMessage}
          labels={{ otp: codeLabel }}
        />
        <code.Field
          name="otp"
          validate={[
            rules.required(codeLabel),
            (value) => (!value || /^\d{6}$/.test(value) ? "" : t("payment.cod.codeFormat")),
          ]}
          transform={(value) =>
            toLatinDigits(value ?? "")
              .replace(/\D/g, "")
              .slice(0, 6)
          }
        >
          {(field, fieldProps) => (
            <TextField
              form={codeForm}
              field={field}
              props={{
                ...fieldProps,
                ref: (element) => {
                  fieldProps.ref(element);
                  codeRef.current = element;
                },
              }}
              label={codeLabel}
              hint={t("payment.cod.codeHint")}
              className="field--otp"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              dir="ltr"
              required
            />
          )}
        </code.Field>
        <SubmitButton className="button button--primary button--block">{t("payment.cod.confirm")}</SubmitButton>
        <button type="button" className="button button--ghost button--block" onClick={props.onResend}>
          {t("payment.cod.resend")}
        </button>
      </code.Form>
    </div>
  );
}
