import { describe, expect, it } from "vitest";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;

/** The catalogue as `npm start` serves it: the seeded database behind the built worker, no network. */
describe("the seeded catalogue in the built worker", () => {
  it("GET /backend/products shows the seeded catalogue in both languages", async () => {
    for (const lang of ["en", "ar"] as const) {
      const res = await fetch(`${base}/backend/products?per_page=48`, { headers: { "content-language": lang } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { name: string; image: string }[]; meta: { total: number } };
      expect(body.meta.total).toBeGreaterThanOrEqual(64);
      expect(body.data).toHaveLength(48);
      if (lang === "ar") expect(body.data[0].name).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it("serves product art as SVG from the worker itself", async () => {
    const list = (await (await fetch(`${base}/backend/products?per_page=1`)).json()) as { data: { image: string }[] };
    const art = await fetch(`${base}${list.data[0].image}`);
    expect(art.status).toBe(200);
    expect(art.headers.get("content-type")).toContain("image/svg+xml");
    expect(art.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("caches public catalogue reads at the edge, per language", async () => {
    const url = `${base}/backend/brands?probe=${crypto.randomUUID()}`;
    const first = await fetch(url, { headers: { "content-language": "ar" } });
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("vary")).toContain("content-language");
    let second = await fetch(url, { headers: { "content-language": "ar" } });
    for (let i = 0; i < 20 && second.headers.get("x-cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      second = await fetch(url, { headers: { "content-language": "ar" } });
    }
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await second.json()).toEqual(await first.json());
    expect((await fetch(url, { headers: { "content-language": "en" } })).headers.get("x-cache")).toBe("MISS");
  });
});
