import type { Route } from "./+types/einvoicing";
import { roleAtLeast } from "../../../contract/console";
import { latinDigits } from "../../../contract/inputs";
import { EINVOICE_STATUSES, type EInvoiceRegistration, type EInvoiceStatus } from "../../../contract/einvoicing";
import { EInvoiceDocuments } from "../../components/console/einvoicing/EInvoiceDocuments";
import { EInvoiceOnboarding } from "../../components/console/einvoicing/EInvoiceOnboarding";
import { EInvoiceStatusPanel } from "../../components/console/einvoicing/EInvoiceStatusPanel";
import { Stylesheet } from "../../components/Stylesheet";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { browserApi } from "../../lib/api/browser";
import {
  getEInvoicing,
  registerEInvoiceUnit,
  renewProductionCertificate,
  requestComplianceCertificate,
  requestProductionCertificate,
  resendEInvoice,
} from "../../lib/api/console-einvoicing";
import { consoleLoad, consoleLocale, consoleMeta } from "../../lib/console";
import { useT } from "../../lib/use-locale";
import einvoicingCss from "../../styles/einvoicing.css?url";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.einvoicing.title");

const isStatus = (s: string | null): s is EInvoiceStatus =>
  (EINVOICE_STATUSES as readonly (string | null)[]).includes(s);

export async function loader(args: Route.LoaderArgs) {
  const asked = args.url.searchParams.get("status");
  const status = isStatus(asked) ? asked : undefined;
  return consoleLoad(
    args,
    async (api, me) => ({
      overview: (await getEInvoicing(api, { status })).data,
      status: status ?? null,
      owner: roleAtLeast(me.role, "owner"),
    }),
    { role: "manager" },
  );
}

const INTENTS = ["register", "compliance", "production", "renew", "resend"] as const;
export type EInvoiceIntent = (typeof INTENTS)[number];

/** Digits as typed in either script, trimmed: the API reads Latin digits only. */
const digitsOf = (form: FormData, name: string) => latinDigits(textOf(form, name).trim());

function registrationOf(form: FormData): EInvoiceRegistration {
  const text = (name: string) => textOf(form, name).trim();
  return {
    crn: digitsOf(form, "crn"),
    branch: text("branch"),
    industry: text("industry"),
    address: {
      street: text("address.street"),
      building_number: digitsOf(form, "address.building_number"),
      additional_number: digitsOf(form, "address.additional_number"),
      district: text("address.district"),
      city: text("address.city"),
      postal_code: digitsOf(form, "address.postal_code"),
    },
  };
}

/** Onboarding steps (the backend lets owners only) and sending a rejected document again. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  const intent = intentOf(form, INTENTS);
  const api = browserApi(locale);
  switch (intent) {
    case "register":
      return answer(locale, intent, () => registerEInvoiceUnit(api, registrationOf(form)));
    case "compliance":
      return answer(locale, intent, () => requestComplianceCertificate(api, digitsOf(form, "otp")));
    case "production":
      return answer(locale, intent, () => requestProductionCertificate(api));
    case "renew":
      return answer(locale, intent, () => renewProductionCertificate(api, digitsOf(form, "otp")));
    case "resend": {
      const id = Number(textOf(form, "id"));
      if (!Number.isSafeInteger(id) || id < 1) return unknownIntent(locale);
      return answer(locale, intent, () => resendEInvoice(api, id));
    }
    default:
      return unknownIntent(locale);
  }
}

/**
 * E-invoicing with ZATCA (managers read, owners onboard): the unit's state and certificate, its
 * onboarding in three steps, and every signed document with ZATCA's answer.
 */
export default function ConsoleEInvoicing({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { overview, owner, status } = loaderData;
  return (
    <div className="einv">
      <Stylesheet href={einvoicingCss} />
      <h1>{t("console.einvoicing.title")}</h1>
      <p className="console-hint">{t("console.einvoicing.intro")}</p>
      <EInvoiceStatusPanel overview={overview} />
      <EInvoiceOnboarding overview={overview} owner={owner} />
      <EInvoiceDocuments overview={overview} status={status} />
    </div>
  );
}
