import type { Translate } from "../lib/i18n";
import { useT } from "../lib/use-locale";

interface NationalCodes {
  short_address?: string | null;
  additional_number?: string | null;
}

/**
 * The national address's codes a printed address adds after its lines ("Short address RRRD2929 ·
 * Additional number 6789"): what a carrier's driver finds the door by. "" when it has none.
 */
export function nationalAddressText(a: NationalCodes, t: Translate): string {
  return [
    a.short_address ? t("address.shortAddressIs", { code: a.short_address }) : "",
    a.additional_number ? t("address.additionalNumberIs", { number: a.additional_number }) : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The national address's codes as one isolated run of text; nothing when it has none. */
export function NationalAddress({ address, className }: { address: NationalCodes; className?: string }) {
  const t = useT();
  const text = nationalAddressText(address, t);
  return text ? <bdi className={["national-address", className].filter(Boolean).join(" ")}>{text}</bdi> : null;
}

/** The national address's line inside an `<address>`, after a line break; nothing when it has no codes. */
export function NationalAddressLine({ address }: { address: NationalCodes }) {
  return address.short_address || address.additional_number ? (
    <>
      <br />
      <NationalAddress address={address} />
    </>
  ) : null;
}
