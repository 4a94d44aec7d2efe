import { lazy, Suspense, useId, useState } from "react";
import { useT } from "../../lib/use-locale";

/** The form and its phone field load when the shopper asks for them, never with the product page. */
const loadForm = () => import("./StockAlertForm");
const StockAlertForm = lazy(() => loadForm().then((m) => ({ default: m.StockAlertForm })));

export interface StockAlertProps {
  productId: number;
  /** The chosen variant of a product of several; left out for a product without options. */
  variantId?: number;
  /** The product's name with the chosen values, as the form's heading says it. */
  name: string;
}

/**
 * "Tell me when it's back" beside a sold-out product's add-to-cart button: a disclosure whose
 * panel is the subscription form (StockAlertForm.tsx), loaded on the first press (or as the
 * pointer or focus comes near, so it is usually there by then).
 */
export function StockAlert({ productId, variantId, name }: StockAlertProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const panel = useId();
  return (
    <div className="stock-alert">
      <button
        type="button"
        className="button stock-alert__toggle"
        aria-expanded={open}
        aria-controls={open ? panel : undefined}
        onPointerEnter={() => void loadForm()}
        onFocus={() => void loadForm()}
        onClick={() => setOpen((o) => !o)}
      >
        {t("stockAlerts.notify")}
      </button>
      {open ? (
        <div id={panel} className="stock-alert__panel">
          <Suspense fallback={<p className="muted">{t("stockAlerts.loading")}</p>}>
            <StockAlertForm productId={productId} variantId={variantId} name={name} onClose={() => setOpen(false)} />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}
