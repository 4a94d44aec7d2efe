import { flushShopperMessages } from "../../services/messages/shopper-messages";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import * as v from "valibot";
import {
  bulkEditInput,
  CSV_MAX_BYTES,
  productAttributesInput,
  productInput,
  productVariantsInput,
  STOCK_STATES,
} from "../../../../contract/console-catalogue";
import { shopIsoDay } from "../../../../contract/shop-time";
import { forgetCatalogueVersion } from "../../cache";
import type { BackendEnv } from "../../env";
import { BackendError, ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { inputMessages } from "../../../../contract/server/input-messages";
import { msg } from "../../messages";
import { validate, wrongBodyType } from "../../../../contract/server/validate";
import {
  bulkEditProducts,
  createConsoleProduct,
  duplicateConsoleProduct,
  getConsoleProduct,
  listConsoleProducts,
  productChoices,
  PRODUCT_SORTS,
  setProductActive,
  updateConsoleProduct,
} from "../../services/console/products";
import { consoleProductAttributes, setProductAttributes } from "../../services/console/product-attributes";
import { consoleProductVariants, setProductVariants } from "../../services/console/product-variants";
import { exportVariantsCsv, importVariantsCsv } from "../../services/console/variant-csv";
import { exportProductsCsv, importProductsCsv, productsCsvTemplate } from "../../services/console/product-csv";
import { storeUpload } from "../../services/console/media";
import { listQuerySchema } from "../../services/console/list";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { queryInt } from "../../validate";

/**
 * /admin/products and /admin/media: support reads the catalogue, managers and owners
 * change it. Mounted at /admin/ beside other areas, so every guard names its own paths.
 */
export const catalogueRoutes = new Hono<BackendEnv>();

const SORT_NAMES = Object.keys(PRODUCT_SORTS) as [keyof typeof PRODUCT_SORTS, ...(keyof typeof PRODUCT_SORTS)[]];

const listQuery = v.object({
  ...listQuerySchema(SORT_NAMES, { dir: "desc" }),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, "Must be at most 100 characters."))),
  category_id: v.optional(queryInt(1, 1_000_000_000)),
  brand_id: v.optional(queryInt(1, 1_000_000_000)),
  active: v.optional(
    v.pipe(
      v.picklist(["1", "0", ""], "Must be 1 or 0."),
      v.transform((s) => (s === "" ? undefined : s === "1")),
    ),
  ),
  stock: v.optional(v.picklist([...STOCK_STATES, ""], `Must be one of: ${STOCK_STATES.join(", ")}.`)),
});

const idParam = v.object({ id: queryInt(1, 1_000_000_000_000) });

/** After a write in this isolate, its own next catalogue read sees it at once. */
const changed = <T>(value: T): T => {
  forgetCatalogueVersion();
  return value;
};

/**
 * After a write that may have put stock back (a bulk edit, variants saved or imported): the
 * back-in-stock alerts its batch wrote go to the queue now rather than at the cron's next minute.
 */
const thenSendStockAlerts: MiddlewareHandler<BackendEnv> = async (c, next) => {
  await next();
  if (c.res.ok) await flushShopperMessages(c.env);
};

catalogueRoutes.get(
  "/products",
  staffOnly("support"),
  validate("query", () => listQuery),
  async (c) => {
    const { search, category_id, brand_id, active, stock, ...query } = c.req.valid("query");
    const { rows, meta } = await listConsoleProducts(c.env.DB, query, {
      search: search || undefined,
      category_id,
      brand_id,
      active,
      stock: stock || undefined,
    });
    return ok(c, rows, { meta: { ...meta } });
  },
);

/** The categories and brands the product form offers. */
catalogueRoutes.get("/products/choices", staffOnly("support"), async (c) => ok(c, await productChoices(c.env.DB)));

/** Every product as CSV: UTF-8 with a BOM (so Excel shows Arabic), RFC 4180 quoting. */
catalogueRoutes.get("/products/export.csv", staffOnly("support"), async (c) => {
  const csv = await exportProductsCsv(c.env.DB);
  const day = shopIsoDay();
  return c.body(csv, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="products-${day}.csv"`,
  });
});

/** A CSV file as a request's body: text/csv only (a form's text/plain is never taken for one), at most CSV_MAX_BYTES. */
async function csvBody(c: Context<BackendEnv>): Promise<string> {
  const lang = c.get("lang");
  if (!/^text\/csv\s*(;|$)/i.test(c.req.header("content-type")?.trim() ?? "")) throw wrongBodyType(lang, "text/csv");
  const text = await c.req.text();
  if (new TextEncoder().encode(text).byteLength > CSV_MAX_BYTES) {
    const message = say(lang, msg("console.catalogue.fileTooLarge"), { mb: CSV_MAX_BYTES / 1024 / 1024 });
    throw new BackendError(422, message, { file: [message] });
  }
  return text;
}

const dryRunQuery = v.object({ dry_run: v.optional(v.picklist(["1", "0"], "Must be 1 or 0."), "1") });

/**
 * A CSV import's answer: the file checked (and written unless `dryRun`) by `run`. A check answers
 * its report; a write refused for bad rows is a 422 carrying the same report.
 */
async function csvImport(c: Context<BackendEnv>, dryRun: boolean, run: typeof importProductsCsv): Promise<Response> {
  const lang = c.get("lang");
  const text = await csvBody(c);
  const report = await run(c.env.DB, lang, inputMessages(lang), currentStaff(c), text, dryRun);
  if (report.written) forgetCatalogueVersion();
  return ok(c, report, { status: report.errors.length && !dryRun ? 422 : 200 });
}

/** Every variant of every product (contract/console-catalogue.ts VARIANT_CSV_COLUMNS). */
catalogueRoutes.get("/products/variants.csv", staffOnly("manager"), async (c) => {
  const csv = await exportVariantsCsv(c.env.DB);
  return c.body(csv, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="variants-${shopIsoDay()}.csv"`,
  });
});

/** A variants CSV as the body: checked, and written (`dry_run=0`) when every row is good, as the products import. */
catalogueRoutes.post(
  "/products/variants/import",
  staffOnly("manager"),
  thenSendStockAlerts,
  validate("query", () => dryRunQuery),
  (c) => csvImport(c, c.req.valid("query").dry_run === "1", importVariantsCsv),
);

/** A products CSV to fill in: the header row and one example row in the request's language. */
catalogueRoutes.get("/products/template.csv", staffOnly("manager"), async (c) => {
  const csv = await productsCsvTemplate(c.env.DB, c.get("lang"));
  return c.body(csv, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="products-template.csv"`,
  });
});

/**
 * The CSV file as the body (text/csv). `dry_run=1` (the default) only checks; `dry_run=0` writes
 * when every row is good. Either way the answer lists every row's errors.
 */
catalogueRoutes.post(
  "/products/import",
  staffOnly("manager"),
  validate("query", () => dryRunQuery),
  (c) => csvImport(c, c.req.valid("query").dry_run === "1", importProductsCsv),
);

/** Sets or moves the price and/or stock of the chosen products: all or nothing, audited per product. */
catalogueRoutes.post(
  "/products/bulk",
  staffOnly("manager"),
  thenSendStockAlerts,
  validate("json", (m) => bulkEditInput(m)),
  async (c) => ok(c, changed(await bulkEditProducts(c.env.DB, c.get("lang"), currentStaff(c), c.req.valid("json")))),
);

catalogueRoutes.get(
  "/products/:id",
  staffOnly("support"),
  validate("param", () => idParam),
  async (c) => ok(c, await getConsoleProduct(c.env.DB, c.req.valid("param").id)),
);

catalogueRoutes.post(
  "/products",
  staffOnly("manager"),
  validate("json", (m) => productInput(m)),
  async (c) => {
    const product = await createConsoleProduct(c.env.DB, c.get("lang"), currentStaff(c), c.req.valid("json"));
    return ok(c, changed(product), { status: 201 });
  },
);

catalogueRoutes.put(
  "/products/:id",
  staffOnly("manager"),
  validate("param", () => idParam),
  validate("json", (m) => productInput(m)),
  async (c) => {
    const id = c.req.valid("param").id;
    return ok(
      c,
      changed(await updateConsoleProduct(c.env.DB, c.get("lang"), currentStaff(c), id, c.req.valid("json"))),
    );
  },
);

/** The product's typed specifications: its category's attributes with its values. */
catalogueRoutes.get(
  "/products/:id/attributes",
  staffOnly("support"),
  validate("param", () => idParam),
  async (c) => ok(c, await consoleProductAttributes(c.env.DB, c.req.valid("param").id)),
);

catalogueRoutes.put(
  "/products/:id/attributes",
  staffOnly("manager"),
  validate("param", () => idParam),
  validate("json", (m) => productAttributesInput(m)),
  async (c) =>
    ok(
      c,
      changed(
        await setProductAttributes(
          c.env.DB,
          c.get("lang"),
          currentStaff(c),
          c.req.valid("param").id,
          c.req.valid("json"),
        ),
      ),
    ),
);

/** The product's options and variants (stopped ones too). */
catalogueRoutes.get(
  "/products/:id/variants",
  staffOnly("support"),
  validate("param", () => idParam),
  async (c) => ok(c, await consoleProductVariants(c.env.DB, c.req.valid("param").id)),
);

catalogueRoutes.put(
  "/products/:id/variants",
  staffOnly("manager"),
  thenSendStockAlerts,
  validate("param", () => idParam),
  validate("json", (m) => productVariantsInput(m)),
  async (c) =>
    ok(
      c,
      changed(
        await setProductVariants(
          c.env.DB,
          c.get("lang"),
          currentStaff(c),
          c.req.valid("param").id,
          c.req.valid("json"),
        ),
      ),
    ),
);

/** Hides the product from the storefront (no deletion: orders keep pointing at it). */
catalogueRoutes.post(
  "/products/:id/deactivate",
  staffOnly("manager"),
  validate("param", () => idParam),
  async (c) => ok(c, changed(await setProductActive(c.env.DB, currentStaff(c), c.req.valid("param").id, false))),
);

catalogueRoutes.post(
  "/products/:id/reactivate",
  staffOnly("manager"),
  validate("param", () => idParam),
  async (c) => ok(c, changed(await setProductActive(c.env.DB, currentStaff(c), c.req.valid("param").id, true))),
);

/** A hidden copy of the product, with no stock, to start a similar one from. */
catalogueRoutes.post(
  "/products/:id/duplicate",
  staffOnly("manager"),
  validate("param", () => idParam),
  async (c) =>
    ok(c, changed(await duplicateConsoleProduct(c.env.DB, currentStaff(c), c.req.valid("param").id)), {
      status: 201,
    }),
);

/**
 * POST /admin/media: an image as the raw body, or as the `file` field of a multipart form. Answers
 * where it is served; 422 for anything but a JPEG, PNG or WebP of at most MEDIA_MAX_BYTES.
 */
catalogueRoutes.post("/media", staffOnly("manager"), async (c) => {
  let bytes: Uint8Array<ArrayBuffer>;
  const type = c.req.header("content-type") ?? "";
  // A form's own body types are never taken for the raw image (a multipart form's `file` field is).
  if (/^\s*(text\/plain|application\/x-www-form-urlencoded)\b/i.test(type))
    throw wrongBodyType(c.get("lang"), "image/jpeg, image/png, image/webp or multipart/form-data");
  if (type.startsWith("multipart/form-data")) {
    const form = await c.req.formData().catch(() => null);
    const file = form?.get("file");
    bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
  } else {
    bytes = new Uint8Array(await c.req.arrayBuffer());
  }
  return ok(c, await storeUpload(c.env, c.get("lang"), currentStaff(c), bytes), { status: 201 });
});
