import type { ReactNode } from "react";
import type { PaymentMark } from "../../../contract/checkout";

/**
 * The marks of what a payment method takes, drawn here (no third-party image or script: the CSP
 * stays strict, and they are in the page's first paint). Decorative: the method's name says the
 * same in words, so screen readers hear it once.
 */
const MARKS: Record<PaymentMark, ReactNode> = {
  mada: (
    <>
      <rect x="4" y="7" width="9" height="4" rx="1" fill="#259bd6" />
      <rect x="4" y="13" width="9" height="4" rx="1" fill="#84b740" />
      <text x="26" y="16.5" textAnchor="middle" fontSize="9" fontWeight="700" fill="#1c1c1c">
        mada
      </text>
    </>
  ),
  visa: (
    <text x="20" y="16.5" textAnchor="middle" fontSize="11" fontWeight="800" fontStyle="italic" fill="#1a1f71">
      VISA
    </text>
  ),
  mastercard: (
    <>
      <circle cx="16" cy="12" r="7" fill="#eb001b" />
      <circle cx="24" cy="12" r="7" fill="#f79e1b" fillOpacity="0.9" />
    </>
  ),
  applepay: (
    <>
      <rect width="40" height="24" rx="4" fill="#000" />
      <text x="20" y="16" textAnchor="middle" fontSize="8.5" fontWeight="600" fill="#fff">
        Apple Pay
      </text>
    </>
  ),
  stcpay: (
    <>
      <rect width="40" height="24" rx="4" fill="#4f008c" />
      <text x="20" y="15.5" textAnchor="middle" fontSize="9" fontWeight="700" fill="#fff">
        stc pay
      </text>
    </>
  ),
  tabby: (
    <>
      <rect width="40" height="24" rx="4" fill="#3effb3" />
      <text x="20" y="15.5" textAnchor="middle" fontSize="10" fontWeight="800" fill="#1d1d1b">
        tabby
      </text>
    </>
  ),
  tamara: (
    <>
      <rect width="40" height="24" rx="4" fill="#ffe3d3" />
      <text x="20" y="15.5" textAnchor="middle" fontSize="9" fontWeight="800" fill="#1d1d1b">
        tamara
      </text>
    </>
  ),
};

export function PaymentMarks({ marks }: { marks: readonly PaymentMark[] }) {
  if (!marks.length) return null;
  return (
    <span className="payment-marks" aria-hidden="true">
      {marks.map((mark) => (
        <svg key={mark} className="payment-mark" data-mark={mark} viewBox="0 0 40 24" width="40" height="24">
          <rect x="0.5" y="0.5" width="39" height="23" rx="3.5" fill="#fff" stroke="#d0d5dd" />
          {MARKS[mark]}
        </svg>
      ))}
    </span>
  );
}
