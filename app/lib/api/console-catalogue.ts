import type {
  ConsoleProduct,
  ConsoleProductRow,
  CsvImportReport,
  MediaUpload,
  ProductChoices,
} from "../../../contract/console-catalogue";
import type { Api } from "./client";
import type { ConsoleList, ListParams } from "./console";

/** The console's products, their images and the products CSV (issue 20). */

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

/** POST /admin/media: the image file as the body; answers the URL it is served at. */
export function uploadImage(api: Api, file: Blob) {
  return api.post<MediaUpload>("/admin/media", file);
}

/** GET /admin/products/export.csv: every product, as the file to save. */
export function exportProducts(api: Api) {
  return api.get<Blob>("/admin/products/export.csv", { asFile: true });
}

/** POST /admin/products/import: checks (dry run) or imports the CSV file; every row's errors. */
export function importProducts(api: Api, file: Blob, dryRun: boolean) {
  return api.post<CsvImportReport>("/admin/products/import", new Blob([file], { type: "text/csv" }), {
    query: { dry_run: dryRun ? 1 : 0 },
  });
}
