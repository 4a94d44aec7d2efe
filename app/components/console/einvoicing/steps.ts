import { COMPLIANCE_SAMPLES, type EInvoiceOverview } from "../../../../contract/einvoicing";

/** Onboarding as the console shows it: register, get the compliance certificate and pass its checks, go to production. */
export const STEPS = ["register", "compliance", "production"] as const;

/** Every one of ZATCA's compliance checks passed (or the unit is past them). */
export function complianceDone(overview: EInvoiceOverview): boolean {
  if (overview.status === "production") return true;
  return overview.status === "compliance" && COMPLIANCE_SAMPLES.every((s) => overview.compliance_passed.includes(s));
}
