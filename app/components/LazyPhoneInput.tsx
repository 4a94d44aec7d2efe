import { lazy, Suspense } from "react";
import type { PhoneInputProps } from "./PhoneInput";

/**
 * The phone input and its numbering metadata (docs/PERFORMANCE.md for its size) load with the first phone field
 * on a page, not with every page that has a form. Until then a plain, LTR, read-only input with
 * the same id and value stands in, so labels and layout do not move.
 */
const PhoneInput = lazy(() => import("./PhoneInput").then((m) => ({ default: m.PhoneInput })));

export function LazyPhoneInput(props: PhoneInputProps) {
  return (
    <Suspense
      fallback={
        <div className="phone-input">
          <input
            id={props.id}
            name={props.name}
            type="tel"
            dir="ltr"
            inputMode="tel"
            className="phone-input__number"
            value={props.value}
            readOnly
            aria-describedby={props.describedBy}
          />
        </div>
      }
    >
      <PhoneInput {...props} />
    </Suspense>
  );
}
