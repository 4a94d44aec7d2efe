import { beforeAll, describe, expect, it, vi } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { buildHeaders, createApi, withQuery, type ApiTransport } from "../../app/lib/api/client";
import { ApiError, handleApiError, toFieldErrors, type ErrorEffects } from "../../app/lib/api/errors";
import { getCreditNoteFile, getInvoiceFile } from "../../app/lib/api/orders";
import { deviceTypeFromHeaders } from "../../app/lib/device";
import { ORDER_ACCESS_HEADER } from "../../contract/order-access";
import { registerMessages } from "../../app/lib/i18n";

beforeAll(() => {
  registerMessages("en", en);
  registerMessages("ar", ar);
});

/** A transport that records what it was asked and answers with a fixed response. */
function recorder(answer: () => Response | Promise<Response>) {
  const calls: { path: string; init: RequestInit }[] = [];
  const transport: ApiTransport = async (path, init) => {
    calls.push({ path, init });
    return answer();
  };
  return { calls, transport };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("the backend client's headers (spec §7)", () => {
  it("sends the content language and the device type on every call", () => {
    const h = buildHeaders({ locale: "ar", deviceType: 2 });
    expect(h.get("content-language")).toBe("ar");
    expect(h.get("device-type")).toBe("2");
    expect(buildHeaders({ locale: "en", deviceType: 1 }).get("device-type")).toBe("1");
  });

  it("sends the bearer token when signed in, and then no guest id", () => {
    const h = buildHeaders({ locale: "en", deviceType: 1, token: "tok_abcdefghijklmnopqrstuvwxyz", guestId: "g-1" });
    expect(h.get("authorization")).toBe("Bearer tok_abcdefghijklmnopqrstuvwxyz");
    expect(h.has("guest-id")).toBe(false);
  });

  it("sends guest-id when not signed in and a guest id exists", () => {
    const h = buildHeaders({
      locale: "en",
      deviceType: 1,
      token: null,
      guestId: "0b6c3f3e-1111-4222-8333-444455556666",
    });
    expect(h.get("guest-id")).toBe("0b6c3f3e-1111-4222-8333-444455556666");
    expect(h.has("authorization")).toBe(false);
  });

  it("sends neither when the visitor has no identity", () => {
    const h = buildHeaders({ locale: "en", deviceType: 1 });
    expect(h.has("authorization")).toBe(false);
    expect(h.has("guest-id")).toBe(false);
  });

  it("sends the Id header only where a call asks for it", () => {
    expect(buildHeaders({ locale: "en", deviceType: 1 }, { id: 42 }).get("id")).toBe("42");
    expect(buildHeaders({ locale: "en", deviceType: 1 }).has("id")).toBe(false);
  });

  it("device-type is 2 for a mobile client hint or a mobile user agent, else 1", () => {
    expect(deviceTypeFromHeaders(new Headers({ "sec-ch-ua-mobile": "?1" }))).toBe(2);
    expect(
      deviceTypeFromHeaders(
        new Headers({ "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148" }),
      ),
    ).toBe(2);
    expect(deviceTypeFromHeaders(new Headers({ "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" }))).toBe(
      1,
    );
  });

  it("builds query strings and leaves out empty values", () => {
    expect(withQuery("/products", { q: "ايفون", page: 2, brand: "", sort: undefined })).toBe(
      "/products?q=%D8%A7%D9%8A%D9%81%D9%88%D9%86&page=2",
    );
    expect(withQuery("/products?x=1", { page: 3 })).toBe("/products?x=1&page=3");
  });
});

describe("the single client's verbs", () => {
  it("GET, POST, PUT, PATCH and DELETE go through the transport with JSON bodies", async () => {
    const { calls, transport } = recorder(() => json({ data: { ok: true } }));
    const api = createApi(transport, { locale: "en", deviceType: 1, token: "tok_abcdefghijklmnopqrstuvwxyz" });
    await api.get("/a", { query: { page: 1 } });
    await api.post("/b", { product_id: 3, quantity: 1 });
    await api.put("/c/1", { name: "x" });
    await api.patch("/c/1", { name: "y" });
    await api.delete("/c/1");
    expect(calls.map((c) => [c.init.method, c.path])).toEqual([
      ["GET", "/a?page=1"],
      ["POST", "/b"],
      ["PUT", "/c/1"],
      ["PATCH", "/c/1"],
      ["DELETE", "/c/1"],
    ]);
    expect(calls[1].init.body).toBe(JSON.stringify({ product_id: 3, quantity: 1 }));
    expect(new Headers(calls[1].init.headers).get("content-type")).toBe("application/json");
    expect(calls[0].init.body).toBeUndefined();
  });

  it("the lookup GET goes to the separate lookup transport", async () => {
    const main = recorder(() => json({ data: 1 }));
    const lookup = recorder(() => json({ data: 2 }));
    const api = createApi(main.transport, { locale: "ar", deviceType: 1 }, lookup.transport);
    const res = await api.lookup<number>("/countries");
    expect(res.data).toBe(2);
    expect(main.calls).toHaveLength(0);
    expect(lookup.calls[0].path).toBe("/countries");
    expect(new Headers(lookup.calls[0].init.headers).get("content-language")).toBe("ar");
  });

  it("a failed answer becomes an ApiError with status, message and field errors", async () => {
    const { transport } = recorder(() =>
      json({ message: "The given data was invalid.", errors: { email: ["Bad email", "Taken"] } }, 422),
    );
    const api = createApi(transport, { locale: "en", deviceType: 1 });
    const err = await api.post("/x", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).fieldErrors).toEqual([{ type: "email", message: "Bad email, Taken" }]);
  });

  it("no response at all becomes an ApiError with status 0", async () => {
    const api = createApi(() => Promise.reject(new TypeError("fetch failed")), { locale: "en", deviceType: 1 });
    const err = await api.get("/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(0);
  });

  it("a non-JSON error body still yields the status", async () => {
    const api = createApi(async () => new Response("<html>oops</html>", { status: 502 }), {
      locale: "en",
      deviceType: 1,
    });
    const err = (await api.get("/x").catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(502);
    expect(err.message).toBe("");
  });
});

describe("a file answer through the same client", () => {
  it("a tax document's file comes back as its bytes, asked for with the identity and the order's grant", async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);
    const { calls, transport } = recorder(
      () => new Response(pdf, { status: 200, headers: { "content-type": "application/pdf" } }),
    );
    const api = createApi(transport, { locale: "ar", deviceType: 1, guestId: "g-1" });
    const file = await getInvoiceFile(api, "ORD-1", "pdf", undefined, "grant-1");
    expect(file.type).toBe("application/pdf");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdf);
    expect(calls[0].path).toBe("/orders/ORD-1/invoice.pdf");
    const headers = new Headers(calls[0].init.headers);
    expect(headers.get("guest-id")).toBe("g-1");
    expect(headers.get("content-language")).toBe("ar");
    expect(headers.get(ORDER_ACCESS_HEADER)).toBe("grant-1");

    await getCreditNoteFile(api, "ORD-1", "7", "xml");
    expect(calls[1].path).toBe("/orders/ORD-1/credit-notes/7.xml");
  });

  it("a refused file is an ApiError with the envelope's message, like any call", async () => {
    const { transport } = recorder(() => json({ message: "The invoice is not stamped yet." }, 409));
    const err = (await createApi(transport, { locale: "en", deviceType: 1 })
      .file("/orders/ORD-1/invoice.xml")
      .catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(409);
    expect(err.message).toBe("The invoice is not stamped yet.");
  });
});

describe("the common error handler (spec §8), every row", () => {
  function effects(locale: "en" | "ar" = "en") {
    const redirect = vi.fn<(to: string) => void>();
    const toast = vi.fn<(m: string) => void>();
    const fx: ErrorEffects = { locale, redirect, toast };
    return { fx, redirect, toast };
  }

  it("400 returns the status and the server message", () => {
    const { fx, redirect, toast } = effects();
    expect(handleApiError(new ApiError(400, "Bad request body"), fx)).toEqual({
      status: 400,
      message: "Bad request body",
    });
    expect(redirect).not.toHaveBeenCalled();
    expect(toast).not.toHaveBeenCalled();
  });

  it("401 redirects to /{locale}/auth/login and returns 'Unauthorized. Redirecting to login.'", () => {
    const { fx, redirect } = effects("ar");
    const en = effects("en");
    expect(handleApiError(new ApiError(401, "Unauthenticated."), en.fx)).toEqual({
      status: 401,
      message: "Unauthorized. Redirecting to login.",
    });
    expect(en.redirect).toHaveBeenCalledWith("/en/auth/login");
    handleApiError(new ApiError(401, ""), fx);
    expect(redirect).toHaveBeenCalledWith("/ar/auth/login");
  });

  it("403 returns the server message", () => {
    const { fx, toast } = effects();
    expect(handleApiError(new ApiError(403, "Forbidden here"), fx)).toEqual({ status: 403, message: "Forbidden here" });
    expect(toast).not.toHaveBeenCalled();
  });

  it("404 redirects to /error", () => {
    const { fx, redirect } = effects();
    expect(handleApiError(new ApiError(404, "Not found"), fx).status).toBe(404);
    expect(redirect).toHaveBeenCalledWith("/error");
  });

  it("422 returns the list of field errors: type is the field name, messages joined by a comma", () => {
    const { fx, toast } = effects();
    const res = handleApiError(
      new ApiError(422, "The given data was invalid.", {
        name: ["Name is required."],
        phone: ["Too short", "Not a number"],
      }),
      fx,
    );
    expect(res).toEqual({
      status: 422,
      message: "The given data was invalid.",
      errors: [
        { type: "name", message: "Name is required." },
        { type: "phone", message: "Too short, Not a number" },
      ],
    });
    expect(toast).not.toHaveBeenCalled();
  });

  it("500 toasts 'Server Error:' plus the message", () => {
    const { fx, toast } = effects();
    expect(handleApiError(new ApiError(500, "Database unavailable"), fx)).toEqual({
      status: 500,
      message: "Server Error:Database unavailable",
    });
    expect(toast).toHaveBeenCalledWith("Server Error:Database unavailable");
  });

  it("any other status toasts 'Server Error:Error {status}: {message}'", () => {
    const { fx, toast } = effects();
    expect(handleApiError(new ApiError(429, "Too many requests"), fx)).toEqual({
      status: 429,
      message: "Server Error:Error 429: Too many requests",
    });
    expect(toast).toHaveBeenCalledWith("Server Error:Error 429: Too many requests");
  });

  it("no response toasts 'An error occurred while fetching data' and reports 500", () => {
    const { fx, toast } = effects();
    expect(handleApiError(new ApiError(0, ""), fx)).toEqual({
      status: 500,
      message: "An error occurred while fetching data",
    });
    expect(handleApiError(new TypeError("fetch failed"), fx).status).toBe(500);
    expect(toast).toHaveBeenCalledWith("An error occurred while fetching data");
  });

  it("an answer without a message falls back to 'An error occurred'", () => {
    const { fx } = effects();
    expect(handleApiError(new ApiError(400, ""), fx).message).toBe("An error occurred");
    expect(handleApiError(new ApiError(503, ""), fx).message).toBe("Server Error:Error 503: An error occurred");
  });

  it("speaks Arabic to an Arabic visitor", () => {
    const { fx, toast } = effects("ar");
    handleApiError(new ApiError(0, ""), fx);
    expect(toast).toHaveBeenCalledWith("حدث خطأ أثناء جلب البيانات");
  });

  it("field errors tolerate a single string instead of a list", () => {
    expect(toFieldErrors({ code: "Expired" as unknown as string[] })).toEqual([{ type: "code", message: "Expired" }]);
  });
});
