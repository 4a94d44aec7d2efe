import type {
  BulkEditResult,
  ConsoleAttribute,
  ConsoleProduct,
  ConsoleProductRow,
  CsvImportReport,
  MediaUpload,
  ProductChoices,
} from "../../../contract/console-catalogue-shapes";
import type { ConsoleVariants } from "../../../contract/console-catalogue";
import { buildHeaders, withQuery, type Api } from "./client";
import { ApiError } from "./errors";
import type { ConsoleList, ListParams } from "./console";

/** The console's products, their images and the products CSV. */

/** The product list's filters, as its URL and the backend name them. */
export const PRODUCT_FILTERS = ["search", "category_id", "brand_id", "active", "stock"] as const;

export function listProducts(api: Api, params: ListParams) {
  return api.get<ConsoleProductRow[]>("/admin/products", { query: params }) as Promise<ConsoleList<ConsoleProductRow>>;
}

export function getProductChoices(api: Api) {
  return api.get<ProductChoices>("/admin/products/choices");
}

export function getProduct(api: Api, id: number) {
  return api.get<ConsoleProduct>(`/admin/products/${id}`);
}

/** The product's typed specifications: its category's attributes with its values. */
export function getProductAttributes(api: Api, id: number) {
  return api.get<ConsoleAttribute[]>(`/admin/products/${id}/attributes`);
}

/** Sets (or, with null, clears) typed values by attribute code; the others stay. */
export function setProductAttributes(api: Api, id: number, values: Record<string, ConsoleAttribute["value"]>) {
  return api.put<ConsoleAttribute[]>(`/admin/products/${id}/attributes`, { attributes: values });
}

/** The product's options and variants, stopped ones too. */
export function getProductVariants(api: Api, id: number) {
  return api.get<ConsoleVariants>(`/admin/products/${id}/variants`);
}

/** Sets the product's options and every variant to sell (contract/console-catalogue.ts `productVariantsInput`). */
export function setProductVariants(api: Api, id: number, request: unknown) {
  return api.put<ConsoleVariants>(`/admin/products/${id}/variants`, request);
}

/** The product form's values as the API takes them (numbers may be digits: the schema reads both). */
export type ProductPayload = Record<string, unknown>;

export function createProduct(api: Api, product: ProductPayload) {
  return api.post<ConsoleProduct>("/admin/products", product);
}

export function updateProduct(api: Api, id: number, product: ProductPayload) {
  return api.put<ConsoleProduct>(`/admin/products/${id}`, product);
}

export function deactivateProduct(api: Api, id: number) {
  return api.post<ConsoleProduct>(`/admin/products/${id}/deactivate`);
}

export function reactivateProduct(api: Api, id: number) {
  return api.post<ConsoleProduct>(`/admin/products/${id}/reactivate`);
}

/** A hidden copy of the product, with no stock and a free slug and SKU; answers the copy. */
export function duplicateProduct(api: Api, id: number) {
  return api.post<ConsoleProduct>(`/admin/products/${id}/duplicate`);
}

/** The list's bulk edit: a price and/or stock change for the chosen products, all or nothing. */
export interface BulkEdit {
  ids: number[];
  price: { mode: "set"; amount: number } | { mode: "percent"; percent: number } | null;
  stock: { mode: "set"; value: number } | { mode: "adjust"; delta: number } | null;
}

export function bulkEditProducts(api: Api, edit: BulkEdit) {
  return api.post<BulkEditResult>("/admin/products/bulk", edit);
}

/**
 * A call whose body or answer is a file (an image, a CSV), made in the browser: the client's own
 * headers (token, language), the file sent as itself rather than as JSON, to `base` (the root
 * loader's backendBase, where the browser reaches the backend); a failure is the same ApiError as
 * any call's. Kept here, not in the shared client, so the shop's pages carry none of it.
 */
export async function fileCall(api: Api, base: string, method: string, path: string, body?: Blob): Promise<Response> {
  const headers = buildHeaders(api.identity);
  if (body) headers.set("content-type", body.type || "application/octet-stream");
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, { method, headers, body });
  } catch (cause) {
    throw new ApiError(0, "", {}, cause);
  }
  if (res.ok) return res;
  const json = (await res.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string[]> };
  throw new ApiError(res.status, json.message ?? "", json.errors ?? {}, json);
}

/** POST /admin/media: the image file as the body; answers the URL it is served at. */
export async function uploadImage(api: Api, base: string, file: Blob): Promise<{ data: MediaUpload }> {
  return (await fileCall(api, base, "POST", "/admin/media", file)).json();
}

/** GET /admin/products/export.csv: every product, as the file to save (its byte order mark kept). */
export async function exportProducts(api: Api, base: string): Promise<Blob> {
  return (await fileCall(api, base, "GET", "/admin/products/export.csv")).blob();
}

/** GET /admin/products/template.csv: a header row and an example row, in the console's language. */
export async function productsTemplate(api: Api, base: string): Promise<Blob> {
  return (await fileCall(api, base, "GET", "/admin/products/template.csv")).blob();
}

/** GET /admin/products/variants.csv: every variant of every product, as the file to save. */
export async function exportVariants(api: Api, base: string): Promise<Blob> {
  return (await fileCall(api, base, "GET", "/admin/products/variants.csv")).blob();
}

/**
 * POST /admin/products/import (a products file) or /admin/products/variants/import (a variants
 * file): checks (dry run) or imports the CSV file; every row's errors.
 */
export async function importProducts(
  api: Api,
  base: string,
  file: Blob,
  dryRun: boolean,
  kind: "products" | "variants" = "products",
): Promise<{ data: CsvImportReport }> {
  const where = kind === "variants" ? "/admin/products/variants/import" : "/admin/products/import";
  const path = withQuery(where, { dry_run: dryRun ? 1 : 0 });
  return (await fileCall(api, base, "POST", path, new Blob([file], { type: "text/csv" }))).json();
}
