import { Hono } from "hono";
import * as v from "valibot";
import {
  BRAND_SORTS,
  CATEGORY_SORTS,
  PAGE_SORTS,
  SERVICE_SORTS,
  brandInput,
  categoryInput,
  pageInput,
  serviceInput,
} from "../../../../contract/console-content";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { listQuerySchema } from "../../services/console/list";
import * as content from "../../services/console/content";
import * as taxonomy from "../../services/console/taxonomy";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { msg } from "../../messages";

/**
 * /admin/categories, /admin/brands, /admin/services, /admin/pages (managers and owners): the
 * catalogue's taxonomy and the shop's content, each change audited and bumping the catalogue
 * version so the storefront shows it within a second.
 */
export const contentRoutes = new Hono<BackendEnv>();

for (const path of ["/categories", "/brands", "/services", "/pages"])
  contentRoutes.use(path, staffOnly("manager")).use(`${path}/*`, staffOnly("manager"));

function idOf(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

const search = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)));
const SAVED = msg("console.content.saved");
const CREATED = msg("console.content.created");
const DELETED = msg("console.content.deleted");

// Categories ----------------------------------------------------------------------------------

contentRoutes.get(
  "/categories",
  validate("query", () => v.object({ ...listQuerySchema(CATEGORY_SORTS, { dir: "asc" }), search })),
  async (c) => {
    const { rows, meta } = await taxonomy.listCategories(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);
contentRoutes.get("/categories/:id", async (c) =>
  ok(c, await taxonomy.findCategory(c.env.DB, idOf(c.req.param("id")))),
);
contentRoutes.post("/categories", validate("json", categoryInput), async (c) =>
  ok(c, await taxonomy.createCategory(c.env.DB, currentStaff(c), c.get("lang"), c.req.valid("json")), {
    status: 201,
    message: say(c.get("lang"), CREATED),
  }),
);
contentRoutes.put("/categories/:id", validate("json", categoryInput), async (c) =>
  ok(
    c,
    await taxonomy.updateCategory(
      c.env.DB,
      currentStaff(c),
      c.get("lang"),
      idOf(c.req.param("id")),
      c.req.valid("json"),
    ),
    { message: say(c.get("lang"), SAVED) },
  ),
);
contentRoutes.delete("/categories/:id", async (c) => {
  await taxonomy.deleteCategory(c.env.DB, currentStaff(c), c.get("lang"), idOf(c.req.param("id")));
  return ok(c, null, { message: say(c.get("lang"), DELETED) });
});

// Brands --------------------------------------------------------------------------------------

contentRoutes.get(
  "/brands",
  validate("query", () => v.object({ ...listQuerySchema(BRAND_SORTS, { dir: "asc" }), search })),
  async (c) => {
    const { rows, meta } = await taxonomy.listBrands(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);
contentRoutes.get("/brands/:id", async (c) => ok(c, await taxonomy.findBrand(c.env.DB, idOf(c.req.param("id")))));
contentRoutes.post("/brands", validate("json", brandInput), async (c) =>
  ok(c, await taxonomy.createBrand(c.env.DB, currentStaff(c), c.get("lang"), c.req.valid("json")), {
    status: 201,
    message: say(c.get("lang"), CREATED),
  }),
);
contentRoutes.put("/brands/:id", validate("json", brandInput), async (c) =>
  ok(
    c,
    await taxonomy.updateBrand(c.env.DB, currentStaff(c), c.get("lang"), idOf(c.req.param("id")), c.req.valid("json")),
    { message: say(c.get("lang"), SAVED) },
  ),
);
contentRoutes.delete("/brands/:id", async (c) => {
  await taxonomy.deleteBrand(c.env.DB, currentStaff(c), c.get("lang"), idOf(c.req.param("id")));
  return ok(c, null, { message: say(c.get("lang"), DELETED) });
});

// Services ------------------------------------------------------------------------------------

contentRoutes.get(
  "/services",
  validate("query", () => v.object(listQuerySchema(SERVICE_SORTS, { dir: "asc" }))),
  async (c) => {
    const { rows, meta } = await content.listServices(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);
contentRoutes.get("/services/:id", async (c) => ok(c, await content.findService(c.env.DB, idOf(c.req.param("id")))));
contentRoutes.post("/services", validate("json", serviceInput), async (c) =>
  ok(c, await content.createService(c.env.DB, currentStaff(c), c.get("lang"), c.req.valid("json")), {
    status: 201,
    message: say(c.get("lang"), CREATED),
  }),
);
contentRoutes.put("/services/:id", validate("json", serviceInput), async (c) =>
  ok(
    c,
    await content.updateService(c.env.DB, currentStaff(c), c.get("lang"), idOf(c.req.param("id")), c.req.valid("json")),
    { message: say(c.get("lang"), SAVED) },
  ),
);
contentRoutes.delete("/services/:id", async (c) => {
  await content.deleteService(c.env.DB, currentStaff(c), idOf(c.req.param("id")));
  return ok(c, null, { message: say(c.get("lang"), DELETED) });
});

// Content pages -------------------------------------------------------------------------------

contentRoutes.get(
  "/pages",
  validate("query", () => v.object(listQuerySchema(PAGE_SORTS, { dir: "asc" }))),
  async (c) => {
    const { rows, meta } = await content.listPages(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);
contentRoutes.get("/pages/:id", async (c) => ok(c, await content.findPage(c.env.DB, idOf(c.req.param("id")))));
contentRoutes.post("/pages", validate("json", pageInput), async (c) =>
  ok(c, await content.createPage(c.env.DB, currentStaff(c), c.get("lang"), c.req.valid("json")), {
    status: 201,
    message: say(c.get("lang"), CREATED),
  }),
);
contentRoutes.put("/pages/:id", validate("json", pageInput), async (c) =>
  ok(
    c,
    await content.updatePage(c.env.DB, currentStaff(c), c.get("lang"), idOf(c.req.param("id")), c.req.valid("json")),
    { message: say(c.get("lang"), SAVED) },
  ),
);
contentRoutes.delete("/pages/:id", async (c) => {
  await content.deletePage(c.env.DB, currentStaff(c), idOf(c.req.param("id")));
  return ok(c, null, { message: say(c.get("lang"), DELETED) });
});
