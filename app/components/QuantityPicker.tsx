import { latinDigits } from "../../contract/digits";
import { useT } from "../lib/use-locale";
import { MinusIcon, PlusIcon } from "./icons";

/** Keeps a typed or stepped quantity inside 1..max (0 when nothing can be ordered). */
export function clampQuantity(value: number, max: number): number {
  if (max < 1) return 0;
  if (!Number.isFinite(value)) return 1;
  return Math.min(max, Math.max(1, Math.trunc(value)));
}

/** A number field with − and + buttons, bounded by the lower of stock and the per-order maximum. */
export function QuantityPicker({
  value,
  max,
  onChange,
  id = "quantity",
}: {
  value: number;
  max: number;
  onChange: (n: number) => void;
  id?: string;
}) {
  const t = useT();
  const disabled = max < 1;
  return (
    <div className="quantity">
      <label htmlFor={id} className="quantity__label">
        {t("product.quantity")}
      </label>
      <div className="quantity__control">
        <button
          type="button"
          className="quantity__step"
          aria-label={t("product.decrease")}
          aria-controls={id}
          disabled={disabled || value <= 1}
          onClick={() => onChange(clampQuantity(value - 1, max))}
        >
          <MinusIcon />
        </button>
        <input
          id={id}
          name="quantity"
          type="number"
          inputMode="numeric"
          min={disabled ? 0 : 1}
          max={max}
          step={1}
          value={value}
          disabled={disabled}
          dir="ltr"
          onChange={(e) => {
            const n = Number(latinDigits(e.target.value));
            if (e.target.value !== "") onChange(clampQuantity(n, max));
          }}
        />
        <button
          type="button"
          className="quantity__step"
          aria-label={t("product.increase")}
          aria-controls={id}
          disabled={disabled || value >= max}
          onClick={() => onChange(clampQuantity(value + 1, max))}
        >
          <PlusIcon />
        </button>
      </div>
    </div>
  );
}
