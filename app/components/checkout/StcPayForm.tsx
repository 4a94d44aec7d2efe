import { useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { saudiMobile } from "../../../contract/inputs";
import type { StcPayStep } from "../../../contract/payments";
import { FormErrors } from "../form/FormErrors";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useRouteAction } from "../form/useRouteAction";
import { FORM_OPTIONS, formRules, phoneKeyDown } from "../../lib/forms";
import { useT } from "../../lib/use-locale";
import { PaymentMarks } from "./PaymentMarks";
import { OtpForm } from "./OtpForm";

/**
 * STC Pay on the shop's page: the wallet's mobile number (the order's own number offered), then
 * the code STC Pay texts to it. The code's answer is the payment's outcome, which the return page
 * (`next`) shows as it shows every payment's. A refusal at the first step goes to `onRefused`,
 * whose page offers a new start or the card page.
 */
export function StcPayForm(props: {
  paymentId: string;
  mobile: string | null;
  next: string;
  onRefused: (message: string) => void;
}) {
  const t = useT();
  const rules = useMemo(() => formRules(t), [t]);
  const navigate = useNavigate();
  const [sent, setSent] = useState<string | null>(null);
  const mobileLabel = t("payment.stcPay.mobile");
  const [mobileForm, mobile] = useForm<{ mobile: string }>({
    ...FORM_OPTIONS,
    initialValues: { mobile: props.mobile ?? "" },
  });
  const sending = useRouteAction(mobileForm);

  const sendMobile = (values: { mobile: string }) =>
    sending.submit<StcPayStep>(
      "stcpay-mobile",
      { payment_id: props.paymentId, mobile: values.mobile },
      {
        loading: t("payment.stcPay.sendingCode"),
        onDone: ({ value }) => {
          if (value.status === "otp") setSent(value.message);
          else props.onRefused(value.message);
        },
      },
    );

  return (
    <div className="stc-pay">
      <PaymentMarks marks={["stcpay"]} />
      <p className="muted">{t("payment.stcPay.lead")}</p>
      <mobile.Form className="form stc-pay__form" onSubmit={sendMobile} shouldFocus={false}>
        <FormErrors
          form={mobileForm}
          messages={rules.messages}
          serverErrors={sending.serverErrors}
          serverMessage={sending.serverMessage}
          labels={{ mobile: mobileLabel }}
        />
        <mobile.Field
          name="mobile"
          validate={[
            rules.required(mobileLabel),
            (value) => (!value?.trim() || saudiMobile(value) ? "" : t("payment.stcPay.mobileFormat")),
          ]}
        >
          {(field, fieldProps) => (
            <TextField
              form={mobileForm}
              field={field}
              props={fieldProps}
              label={mobileLabel}
              hint={t("payment.stcPay.mobileHint")}
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
              onKeyDown={phoneKeyDown}
              maxLength={20}
              dir="ltr"
              readOnly={sent !== null}
              required
            />
          )}
        </mobile.Field>
        {sent === null ? (
          <SubmitButton className="button button--primary button--block">{t("payment.stcPay.sendCode")}</SubmitButton>
        ) : null}
      </mobile.Form>
      {sent !== null ? (
        <OtpForm
          intent="stcpay-otp"
          paymentId={props.paymentId}
          notice={sent}
          label={t("payment.stcPay.code")}
          hint={t("payment.stcPay.codeHint")}
          formatMessage={t("payment.stcPay.codeFormat")}
          digits={{ min: 4, max: 8 }}
          submitLabel={t("payment.stcPay.payNow")}
          loading={t("payment.stcPay.paying")}
          onDone={() => void navigate(props.next, { replace: true })}
        />
      ) : null}
    </div>
  );
}
