import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ConsoleVariants, CsvImportReport } from "../../contract/console-catalogue";
import { call, createProduct } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";

/**
 * The variants CSV: a row per variant, its product by SKU, options written in both languages. A
 * dry run checks every row with the console's own rules and reports each problem on its row in
 * the caller's language; a good file is merged into each product's variants in one batch.
 */

async function importCsv(staff: Staff, csv: string, dryRun: boolean, lang: "en" | "ar" = "en") {
  const res = await SELF.fetch(`https://shop.test/backend/admin/products/variants/import?dry_run=${dryRun ? 1 : 0}`, {
    method: "POST",
    headers: { ...staff.headers, "content-type": "text/csv", "content-language": lang, origin: "https://shop.test" },
    body: csv,
  });
  return { status: res.status, report: ((await res.json()) as { data: CsvImportReport }).data };
}

const header = "product_sku,sku,price,compare_at_price,stock,option1,value1,option2,value2";

describe("the variants CSV", () => {
  it("a dry run writes nothing; the file then gives a product its options and variants, and exports them back", async () => {
    const manager = await newStaff("manager");
    const product = await createProduct({ price: 50000, stock: 2 });
    const sku = product.slug.toUpperCase();
    const csv = [
      header,
      `${sku},${sku}-BLU-128,499,,4,Colour | اللون,Blue | أزرق | #1f3a5f,Storage | السعة,128 GB | 128 جيجابايت`,
      `${sku},${sku}-BLU-256,599,649,0,Colour | اللون,Blue | أزرق | #1f3a5f,Storage | السعة,256 GB | 256 جيجابايت`,
      `${sku},${sku}-BLK-128,٤٩٩,,3,Colour | اللون,Black | أسود | #111111,Storage | السعة,128 GB | 128 جيجابايت`,
    ].join("\n");
    const dry = await importCsv(manager, csv, true);
    expect(dry.status).toBe(200);
    expect(dry.report).toMatchObject({ dry_run: true, rows: 3, created: 3, updated: 0, errors: [], written: false });
    const untouched = await call<ConsoleVariants>(manager, "GET", `/admin/products/${product.id}/variants`);
    expect(untouched.body.data.options).toEqual([]);

    const done = await importCsv(manager, csv, false);
    expect(done.report).toMatchObject({ written: true, created: 3, errors: [] });
    const saved = (await call<ConsoleVariants>(manager, "GET", `/admin/products/${product.id}/variants`)).body.data;
    expect(saved.options.map((o) => [o.code, o.kind, o.values.map((v) => v.code)])).toEqual([
      ["colour", "swatch", ["blue", "black"]],
      ["storage", "button", ["128-gb", "256-gb"]],
    ]);
    const active = saved.variants.filter((v) => v.active);
    expect(active.map((v) => [v.sku, v.price, v.compare_at_price, v.stock])).toEqual([
      [`${sku}-BLU-128`, 49900, null, 4],
      [`${sku}-BLU-256`, 59900, 64900, 0],
      [`${sku}-BLK-128`, 49900, null, 3],
    ]);

    // A second file edits one (its stock column not read: Inventory moves stock) and adds one.
    const second = [
      header,
      `${sku},${sku}-BLU-128,479,,99,Colour | اللون,Blue | أزرق,Storage | السعة,128 GB | 128 جيجابايت`,
      `${sku},${sku}-BLK-256,579,,1,Colour | اللون,Black | أسود,Storage | السعة,256 GB | 256 جيجابايت`,
    ].join("\n");
    expect((await importCsv(manager, second, false)).report).toMatchObject({ written: true, created: 1, updated: 1 });
    const after = (await call<ConsoleVariants>(manager, "GET", `/admin/products/${product.id}/variants`)).body.data;
    expect(after.variants.find((v) => v.sku === `${sku}-BLU-128`)).toMatchObject({ price: 47900, stock: 4 });
    expect(after.variants.filter((v) => v.active)).toHaveLength(4);

    const exported = await SELF.fetch("https://shop.test/backend/admin/products/variants.csv", {
      headers: manager.headers,
    });
    const text = await exported.text();
    expect(text).toContain(
      `${sku},${sku}-BLK-256,,579.00,,1,5,1,,Colour | اللون,Black | أسود | #111111,Storage | السعة,256 GB | 256 جيجابايت`,
    );

    // Pictures: a file with the column sets them (and exports them back); one without keeps them.
    const blue = `/backend/media/products/${product.slug}.svg?colour=1f3a5f`;
    const opts = (colour: string) => `Colour | اللون,${colour},Storage | السعة,128 GB | 128 جيجابايت`;
    const pictured = [
      "product_sku,sku,price,images,option1,value1,option2,value2",
      `${sku},${sku}-BLU-128,479,${blue} /backend/media/products/${product.slug}.svg?view=2,${opts("Blue | أزرق")}`,
      `${sku},${sku}-BLK-128,499,,${opts("Black | أسود")}`,
    ].join("\n");
    expect((await importCsv(manager, pictured, false)).report).toMatchObject({ written: true, updated: 2, errors: [] });
    const pictures = async () =>
      Object.fromEntries(
        (await call<ConsoleVariants>(manager, "GET", `/admin/products/${product.id}/variants`)).body.data.variants.map(
          (v) => [v.sku, v.images],
        ),
      );
    expect((await pictures())[`${sku}-BLU-128`]).toEqual([blue, `/backend/media/products/${product.slug}.svg?view=2`]);
    expect((await pictures())[`${sku}-BLK-128`]).toEqual([]);
    expect((await importCsv(manager, [header, second.split("\n")[1]].join("\n"), false)).report.written).toBe(true);
    expect((await pictures())[`${sku}-BLU-128`]).toHaveLength(2);
    const again = await (
      await SELF.fetch("https://shop.test/backend/admin/products/variants.csv", { headers: manager.headers })
    ).text();
    expect(again).toContain(
      `${sku},${sku}-BLU-128,,479.00,,4,5,1,${blue} /backend/media/products/${product.slug}.svg?view=2,`,
    );
    // A picture from elsewhere is refused on its row.
    const foreign = await importCsv(
      manager,
      [
        "product_sku,sku,price,images,option1,value1,option2,value2",
        `${sku},${sku}-BLU-128,479,https://x.test/a.png,${opts("Blue | أزرق")}`,
      ].join("\n"),
      false,
    );
    expect(foreign.report.errors).toEqual([expect.objectContaining({ row: 2, field: "images" })]);
  });

  it("a bad row gets a clear error on its row and field, in English or Arabic; nothing is written", async () => {
    const manager = await newStaff("manager");
    const product = await createProduct();
    const sku = product.slug.toUpperCase();
    const csv = [
      header,
      `${sku},${sku}-A,100,,1,Colour,Blue | أزرق,,`,
      `NO-SUCH-PRODUCT,X-1,100,,1,Colour | اللون,Blue | أزرق,,`,
      `${sku},${sku}-B,free,,1,Colour | اللون,Red | أحمر,,`,
      `${sku},${sku}-C,100,,1,Colour | اللون,Red | أحمر,,`,
      `${sku},${sku}-D,100,,1,Colour | اللون,Red | أحمر,,`,
    ].join("\n");
    for (const [lang, bilingual, noProduct] of [
      ["en", /English and in Arabic/, /No product has the SKU «NO-SUCH-PRODUCT»/],
      ["ar", /بالإنجليزية وبالعربية/, /لا يوجد منتج برمز «NO-SUCH-PRODUCT»/],
    ] as const) {
      const { status, report } = await importCsv(manager, csv, false, lang);
      expect(status).toBe(422);
      expect(report.written).toBe(false);
      const at = (row: number) => report.errors.filter((e) => e.row === row);
      expect(at(2)).toEqual([{ row: 2, field: "option1", message: expect.stringMatching(bilingual) }]);
      expect(at(3)).toEqual([{ row: 3, field: "product_sku", message: expect.stringMatching(noProduct) }]);
      expect(at(4).map((e) => e.field)).toEqual(["price"]);
      // Rows 5 and 6 are the same red variant: the second is refused.
      expect(at(6).map((e) => e.field)).toEqual(["options"]);
    }
    const still = (await call<ConsoleVariants>(manager, "GET", `/admin/products/${product.id}/variants`)).body.data;
    expect(still.variants).toHaveLength(1);
    expect(still.options).toEqual([]);
  });
});
