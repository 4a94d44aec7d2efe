import { describe, expect, it } from "vitest";
import type { Api } from "../../app/lib/api/client";
import {
  einvoiceXmlHref,
  einvoiceXmlPath,
  getEInvoicing,
  registerEInvoiceUnit,
  renewProductionCertificate,
  requestComplianceCertificate,
  requestProductionCertificate,
  resendEInvoice,
} from "../../app/lib/api/console-einvoicing";

/** An Api that records the calls made through it and answers an empty envelope. */
function recordingApi() {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const record = (method: string) => async (path: string, body?: unknown) => {
    calls.push({ method, path, ...(body === undefined ? {} : { body }) });
    return { data: null };
  };
  const api = { get: record("GET"), post: record("POST"), put: record("PUT") } as unknown as Api;
  return { api, calls };
}

const registration = {
  crn: "1010010000",
  branch: "Riyadh",
  industry: "Retail",
  address: {
    street: "King Fahd Road",
    building_number: "1234",
    additional_number: "5678",
    district: "Al Olaya",
    city: "Riyadh",
    postal_code: "12345",
  },
};

describe("the console's e-invoicing calls", () => {
  it("read the overview (of one status), onboard the unit step by step: register, compliance with the OTP, production, renewal", async () => {
    const { api, calls } = recordingApi();
    await getEInvoicing(api);
    await getEInvoicing(api, { status: "rejected" });
    await registerEInvoiceUnit(api, registration);
    await requestComplianceCertificate(api, "123345");
    await requestProductionCertificate(api);
    await renewProductionCertificate(api, "654321");
    expect(calls).toEqual([
      { method: "GET", path: "/admin/einvoicing" },
      { method: "GET", path: "/admin/einvoicing", body: { query: { status: "rejected" } } },
      { method: "PUT", path: "/admin/einvoicing/registration", body: registration },
      { method: "POST", path: "/admin/einvoicing/compliance", body: { otp: "123345" } },
      { method: "POST", path: "/admin/einvoicing/production" },
      { method: "POST", path: "/admin/einvoicing/renew", body: { otp: "654321" } },
    ]);
  });

  it("send a rejected document again by its id, and open its XML under the console's own path", async () => {
    const { api, calls } = recordingApi();
    await resendEInvoice(api, 42);
    expect(calls).toEqual([{ method: "POST", path: "/admin/einvoicing/documents/42/resend" }]);
    expect(einvoiceXmlPath(42)).toBe("/admin/einvoicing/documents/42/xml");
    expect(einvoiceXmlHref("ar", 42)).toBe("/ar/admin/einvoicing/documents/42/xml");
  });
});
