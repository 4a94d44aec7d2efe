import type { InstalmentText } from "../lib/instalments";
import { PaymentMarks } from "./checkout/PaymentMarks";

/**
 * The pay-later lines under a price (lib/instalments.ts words them): the provider's mark, drawn by
 * the shop (no provider script), then the sentence. Nothing when no provider takes the amount.
 */
export function InstalmentLine({ lines }: { lines: readonly InstalmentText[] }) {
  return (
    <>
      {lines.map((line) => (
        <p key={line.provider} className="instalments" data-provider={line.provider}>
          <PaymentMarks marks={[line.provider]} />
          <span className="instalments__text">{line.text}</span>
        </p>
      ))}
    </>
  );
}
