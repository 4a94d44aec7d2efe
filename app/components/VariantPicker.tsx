import { Link } from "../lib/link";
import { useT } from "../lib/use-locale";
import { variantQuery, type Picker } from "../lib/variants";

/**
 * The option pickers of a product of several variants: swatches for colours, buttons for the rest.
 * Every value is a link to the variant it leads to (the URL holds the choice), so the pickers work
 * without JavaScript; with it, the route keeps its data and only the choice changes. A value sold
 * out, or not made with the other chosen values, is shown as such, never hidden.
 */
export function VariantPicker({ pickers, base }: { pickers: Picker[]; /** The product page's path. */ base: string }) {
  const t = useT();
  return (
    <div className="variant-picker">
      {pickers.map((picker) => (
        <div
          className="variant-picker__option"
          role="group"
          aria-labelledby={`option-${picker.code}`}
          key={picker.code}
        >
          <p className="variant-picker__label" id={`option-${picker.code}`}>
            {picker.name}: <strong>{picker.chosen}</strong>
          </p>
          <ul className={`variant-picker__values variant-picker__values--${picker.kind}`}>
            {picker.values.map((value) => {
              const label = value.unavailable
                ? t("product.valueUnavailable", { value: value.name })
                : value.soldOut
                  ? t("product.valueSoldOut", { value: value.name })
                  : value.name;
              const state = value.unavailable ? " is-unavailable" : value.soldOut ? " is-sold-out" : "";
              return (
                <li key={value.code}>
                  <Link
                    to={`${base}${variantQuery(value.target.options)}`}
                    replace
                    preventScrollReset
                    className={`variant-picker__value${state}`}
                    aria-current={value.selected ? "true" : undefined}
                    aria-label={picker.kind === "swatch" || label !== value.name ? label : undefined}
                    title={picker.kind === "swatch" ? label : undefined}
                    data-value={value.code}
                  >
                    {picker.kind === "swatch" ? (
                      <svg aria-hidden="true" viewBox="0 0 32 32" width="32" height="32">
                        <circle cx="16" cy="16" r="14" fill={value.swatch ?? "#9ca3af"} />
                      </svg>
                    ) : (
                      value.name
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}
