import { useEffect, useState } from "react";
import { useT } from "../lib/use-locale";
import { MinusIcon, PlusIcon } from "./icons";

export interface QuantityStepperProps {
  value: number;
  min?: number;
  max: number;
  /** The product's name, for the buttons' accessible names. */
  name: string;
  disabled?: boolean;
  onChange: (quantity: number) => void;
  id?: string;
  /** The id of a message about the quantity (a stock bound), read with the field. */
  describedBy?: string;
}

/** − [n] +: the buttons step by one; a typed number is applied when the field is left or Enter pressed. */
export function QuantityStepper({
  value,
  min = 1,
  max,
  name,
  disabled,
  onChange,
  id,
  describedBy,
}: QuantityStepperProps) {
  const t = useT();
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(String(value)), [value]);

  const commit = () => {
    const n = Number.parseInt(
      draft.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660)),
      10,
    );
    if (!Number.isFinite(n) || n === value) return setDraft(String(value));
    const next = Math.max(min, Math.min(max, n));
    // Clamped back to what it was (above the bound, or sold out): nothing to change.
    if (next === value) return setDraft(String(value));
    onChange(next);
  };

  return (
    <div className="stepper" role="group" aria-label={t("cart.quantityOf", { name })}>
      <button
        type="button"
        className="stepper__button"
        aria-label={t("cart.decrease", { name })}
        disabled={disabled || value <= min}
        onClick={() => onChange(value - 1)}
      >
        <MinusIcon />
      </button>
      <input
        id={id}
        className="stepper__input"
        type="text"
        inputMode="numeric"
        dir="ltr"
        aria-label={t("cart.quantityOf", { name })}
        aria-describedby={describedBy}
        value={draft}
        disabled={disabled}
        onChange={(e) => setDraft(e.target.value.replace(/[^\d\u0660-\u0669]/g, "").slice(0, 3))}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          }
        }}
      />
      <button
        type="button"
        className="stepper__button"
        aria-label={t("cart.increase", { name })}
        disabled={disabled || value >= max}
        onClick={() => onChange(value + 1)}
      >
        <PlusIcon />
      </button>
    </div>
  );
}
