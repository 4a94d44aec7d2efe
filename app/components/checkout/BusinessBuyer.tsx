import { useT } from "../../lib/use-locale";
import { FieldError, FieldLabel, inputProps, type FieldsState } from "./fields";

/**
 * "Buying for a business?": a tax invoice in the company's name (a standard invoice), for which the
 * buyer gives the company's name and VAT number, and the delivery address its national codes.
 * Closed until the shopper opens it; closed again, nothing of it is sent.
 */
export function BusinessBuyer({
  form,
  open,
  onOpen,
  addressProblem,
}: {
  form: FieldsState;
  open: boolean;
  onOpen: (open: boolean) => void;
  /** The chosen saved address lacks the codes a standard invoice needs: what to do about it. */
  addressProblem: string;
}) {
  const t = useT();
  const invalid = (name: "buyer_company" | "buyer_vat_number") => (form.errorOf(name) ? "true" : undefined);
  return (
    // Named by its visible title: a visually hidden legend is placed outside a narrow right-to-left page.
    <fieldset className="checkout__section checkout__business" aria-labelledby="co-business-title">
      <label className="checkout__business-toggle">
        <input
          type="checkbox"
          name="business"
          checked={open}
          onChange={(e) => onOpen(e.target.checked)}
          aria-controls="co-business"
        />
        <span>
          <span id="co-business-title" className="checkout__business-title">
            {t("checkout.business.title")}
          </span>
          <span className="muted"> {t("checkout.business.summary")}</span>
        </span>
      </label>
      <div id="co-business" hidden={!open}>
        {open ? (
          <>
            <p className="notice notice--info checkout__business-note">{t("checkout.business.addressNote")}</p>
            {addressProblem ? (
              <p id="co-address_choice" className="field__error" tabIndex={-1}>
                {addressProblem}
              </p>
            ) : null}
            <div className="checkout__grid">
              <div className="field" data-invalid={invalid("buyer_company")}>
                <FieldLabel form={form} name="buyer_company" required />
                <input {...inputProps(form, "buyer_company")} autoComplete="organization" aria-required="true" />
                <FieldError form={form} name="buyer_company" />
              </div>
              <div className="field" data-invalid={invalid("buyer_vat_number")}>
                <FieldLabel form={form} name="buyer_vat_number" required />
                <input
                  {...inputProps(form, "buyer_vat_number")}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={20}
                  dir="ltr"
                  aria-required="true"
                  aria-describedby={
                    [form.errorOf("buyer_vat_number") ? "co-buyer_vat_number-error" : "", "co-buyer_vat_number-hint"]
                      .filter(Boolean)
                      .join(" ") || undefined
                  }
                />
                <p id="co-buyer_vat_number-hint" className="field__hint muted">
                  {t("checkout.business.vatNumberHint")}
                </p>
                <FieldError form={form} name="buyer_vat_number" />
              </div>
            </div>
          </>
        ) : null}
      </div>
    </fieldset>
  );
}
