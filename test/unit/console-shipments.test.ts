import { describe, expect, it } from "vitest";
import type { Api } from "../../app/lib/api/client";
import {
  cancelShipment,
  createShipments,
  getRemittances,
  isShippingDocument,
  shipOrders,
  shippingDocumentHref,
  shippingDocumentPath,
} from "../../app/lib/api/console-shipments";

/** An Api that records the calls made through it and answers an empty envelope. */
function recordingApi() {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const record = (method: string) => async (path: string, body?: unknown) => {
    calls.push({ method, path, ...(body === undefined ? {} : { body }) });
    return { data: null };
  };
  const api = { get: record("GET"), post: record("POST") } as unknown as Api;
  return { api, calls };
}

describe("the console's parcel calls", () => {
  it("create an order's parcels as planned, or one of everything left when no plan is given", async () => {
    const { api, calls } = recordingApi();
    await createShipments(api, "SQ-AAAA1111", [{ lines: [{ variant_id: 7, quantity: 1 }] }]);
    await createShipments(api, "SQ-AAAA1111");
    expect(calls).toEqual([
      {
        method: "POST",
        path: "/admin/orders/SQ-AAAA1111/shipments",
        body: { parcels: [{ lines: [{ variant_id: 7, quantity: 1 }] }] },
      },
      { method: "POST", path: "/admin/orders/SQ-AAAA1111/shipments", body: {} },
    ]);
  });

  it("cancel a parcel by its id, ship many orders at once and read the remittances", async () => {
    const { api, calls } = recordingApi();
    await cancelShipment(api, "SQ-AAAA1111", 42);
    await shipOrders(api, ["SQ-AAAA1111", "SQ-BBBB2222"]);
    await getRemittances(api);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /admin/orders/SQ-AAAA1111/shipments/42/cancel",
      "POST /admin/shipments",
      "GET /admin/shipments/remittances",
    ]);
    expect(calls[1]!.body).toEqual({ orders: ["SQ-AAAA1111", "SQ-BBBB2222"] });
  });
});

describe("shipping documents", () => {
  it("are opened at the console's own address, with the numbers as typed", () => {
    expect(shippingDocumentHref("ar", { document: "labels.pdf", ids: [1, 2] })).toBe(
      "/ar/admin/shipments/labels.pdf?ids=1,2",
    );
    expect(shippingDocumentHref("en", { document: "labels.pdf", orders: ["SQ-AAAA1111", "SQ-BBBB2222"] })).toBe(
      "/en/admin/shipments/labels.pdf?orders=SQ-AAAA1111,SQ-BBBB2222",
    );
    expect(shippingDocumentHref("en", { document: "pick-list.pdf", orders: ["SQ-AAAA1111"] })).toBe(
      "/en/admin/shipments/pick-list.pdf?orders=SQ-AAAA1111",
    );
    expect(shippingDocumentHref("en", { document: "manifest.pdf", carrier: "courier", day: "2026-12-06" })).toBe(
      "/en/admin/shipments/manifest.pdf?carrier=courier&day=2026-12-06",
    );
  });

  it("reach the backend with only the query each document takes", () => {
    const asked = new URLSearchParams("ids=1,2&orders=SQ-AAAA1111&token=x&carrier=courier");
    expect(shippingDocumentPath("labels.pdf", asked)).toBe("/admin/shipments/labels.pdf?ids=1,2&orders=SQ-AAAA1111");
    expect(shippingDocumentPath("pick-list.pdf", asked)).toBe("/admin/shipments/pick-list.pdf?orders=SQ-AAAA1111");
    expect(shippingDocumentPath("manifest.pdf", new URLSearchParams("carrier=aramex&day=2026-12-06"))).toBe(
      "/admin/shipments/manifest.pdf?carrier=aramex&day=2026-12-06",
    );
    expect(shippingDocumentPath("manifest.pdf", new URLSearchParams())).toBe("/admin/shipments/manifest.pdf");
  });

  it("are only the three the backend renders", () => {
    expect(["labels.pdf", "pick-list.pdf", "manifest.pdf"].every(isShippingDocument)).toBe(true);
    for (const name of ["remittances", "labels", "toString", "__proto__", undefined])
      expect(isShippingDocument(name)).toBe(false);
  });
});
