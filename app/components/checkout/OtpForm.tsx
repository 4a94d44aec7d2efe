import { useForm } from "@modular-forms/react";
import { useEffect, useMemo, useRef, type ReactNode } from "react";
import { FormErrors } from "../form/FormErrors";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useRouteAction } from "../form/useRouteAction";
import { FORM_OPTIONS, formRules } from "../../lib/forms";
import { toLatinDigits } from "../../lib/phone-text";
import { useT } from "../../lib/use-locale";

/**
 * A code texted to the shopper, typed on the shop's payment page (STC Pay's, a cash-on-delivery
 * order's): where it went, the code's field (focused when it appears; Arabic-Indic digits read as
 * digits), and its submit as the route's `intent` with the payment's id. `children`: further ways on.
 */
export function OtpForm(props: {
  intent: string;
  paymentId: string;
  /** Where the code went, as the backend said it. */
  notice: string;
  label: string;
  hint: string;
  /** Said when the typed code has the wrong number of digits. */
  formatMessage: string;
  digits: { min: number; max: number };
  submitLabel: string;
  loading: string;
  onDone: () => void;
  children?: ReactNode;
}) {
  const t = useT();
  const rules = useMemo(() => formRules(t), [t]);
  const [codeForm, code] = useForm<{ otp: string }>({ ...FORM_OPTIONS, initialValues: { otp: "" } });
  const confirming = useRouteAction(codeForm);
  const codeRef = useRef<{ focus(): void } | null>(null);
  const { min, max } = props.digits;

  // The code is the next thing to type: its field takes the focus when the form appears.
  useEffect(() => {
    codeRef.current?.focus();
  }, []);

  const confirm = (values: { otp: string }) =>
    confirming.submit(
      props.intent,
      { payment_id: props.paymentId, otp: values.otp },
      { loading: props.loading, onDone: props.onDone },
    );

  return (
    <code.Form className="form stc-pay__form" onSubmit={confirm} shouldFocus={false}>
      <p className="notice" role="status">
        {props.notice}
      </p>
      <FormErrors
        form={codeForm}
        messages={rules.messages}
        serverErrors={confirming.serverErrors}
        serverMessage={confirming.serverMessage}
        labels={{ otp: props.label }}
      />
      <code.Field
        name="otp"
        validate={[
          rules.required(props.label),
          (value) => (!value || new RegExp(`^\\d{${min},${max}}$`).test(value) ? "" : props.formatMessage),
        ]}
        transform={(value) =>
          toLatinDigits(value ?? "")
            .replace(/\D/g, "")
            .slice(0, max)
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
            label={props.label}
            hint={props.hint}
            className="field--otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={max}
            dir="ltr"
            required
          />
        )}
      </code.Field>
      <SubmitButton className="button button--primary button--block">{props.submitLabel}</SubmitButton>
      {props.children}
    </code.Form>
  );
}
