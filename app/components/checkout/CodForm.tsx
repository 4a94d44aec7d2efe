import { useNavigate } from "react-router";
import { useT } from "../../lib/use-locale";
import { OtpForm } from "./OtpForm";

/**
 * Cash on delivery on the shop's page: the code texted to the delivery mobile confirms the order
 * (the backend sent it when the page started). Confirmed, the shopper goes to the order's page
 * (`next`); "Send a new code" starts the page again (`onResend`), which the backend throttles.
 */
export function CodForm(props: { paymentId: string; message: string; next: string; onResend: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <div className="stc-pay cod-confirm">
      <p className="muted">{t("payment.cod.lead")}</p>
      <OtpForm
        intent="cod-otp"
        paymentId={props.paymentId}
        notice={props.message}
        label={t("payment.cod.code")}
        hint={t("payment.cod.codeHint")}
        formatMessage={t("payment.cod.codeFormat")}
        digits={{ min: 6, max: 6 }}
        submitLabel={t("payment.cod.confirm")}
        loading={t("payment.cod.confirming")}
        onDone={() => void navigate(props.next, { replace: true })}
      >
        <button type="button" className="button button--ghost button--block" onClick={props.onResend}>
          {t("payment.cod.resend")}
        </button>
      </OtpForm>
    </div>
  );
}
