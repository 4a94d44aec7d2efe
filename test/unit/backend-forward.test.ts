import { describe, expect, it } from "vitest";
import { EDGE_SECRET_HEADER, VISITOR_IP_HEADER } from "../../contract/edge-caller";
import { forwardedHeaders } from "../../worker/backend-client";

// What the edge sends on when it forwards a browser's /backend call to BACKEND_URL.
describe("a forwarded backend call", () => {
  const incoming = new Headers({
    host: "shop.example",
    cookie: "__Host-sid=secret-session-id",
    "content-length": "12",
    authorization: "Bearer token-of-the-shopper",
    "guest-id": "4f0c2a1e-8b7d-4c3a-9e21-0a1b2c3d4e5f",
    "content-language": "ar",
    "cf-connecting-ip": "203.0.113.7",
    "x-forwarded-for": "198.51.100.1",
  });
  const sent = forwardedHeaders(incoming, "req-1");

  it("keeps what the backend needs to know who is calling and in which language", () => {
    expect(sent.get("authorization")).toBe("Bearer token-of-the-shopper");
    expect(sent.get("guest-id")).toBe("4f0c2a1e-8b7d-4c3a-9e21-0a1b2c3d4e5f");
    expect(sent.get("content-language")).toBe("ar");
    expect(sent.get("x-request-id")).toBe("req-1");
  });

  it("drops the shop's own cookies and the connection's headers", () => {
    expect(sent.get("cookie")).toBeNull();
    expect(sent.get("host")).toBeNull();
    expect(sent.get("content-length")).toBeNull();
  });

  it("counts the visitor under the address Cloudflare saw, never one the caller wrote", () => {
    expect(sent.get("x-forwarded-for")).toBe("203.0.113.7");
    const spoofed = forwardedHeaders(new Headers({ "x-forwarded-for": "198.51.100.1" }), undefined);
    expect(spoofed.get("x-forwarded-for")).toBeNull();
  });

  it("vouches for the visitor with the edge's secret when it is set, and never passes on a caller's own word", () => {
    const vouched = forwardedHeaders(incoming, "req-1", "edge-secret");
    expect(vouched.get(EDGE_SECRET_HEADER)).toBe("edge-secret");
    expect(vouched.get(VISITOR_IP_HEADER)).toBe("203.0.113.7");
    const forged = new Headers({ [EDGE_SECRET_HEADER]: "guess", [VISITOR_IP_HEADER]: "198.51.100.9" });
    const unset = forwardedHeaders(forged, undefined);
    expect(unset.get(EDGE_SECRET_HEADER)).toBeNull();
    expect(unset.get(VISITOR_IP_HEADER)).toBeNull();
    forged.set("cf-connecting-ip", "203.0.113.8");
    const replaced = forwardedHeaders(forged, undefined, "edge-secret");
    expect(replaced.get(EDGE_SECRET_HEADER)).toBe("edge-secret");
    expect(replaced.get(VISITOR_IP_HEADER)).toBe("203.0.113.8");
  });
});
