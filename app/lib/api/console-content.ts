import type {
  AdjustmentInput,
  BrandInput,
  CategoryInput,
  ConsoleBrand,
  ConsoleCategory,
  ConsolePage,
  ConsoleService,
  InventoryAdjustment,
  PageInput,
  ServiceInput,
  StockProduct,
} from "../../../contract/console-content";
import type { Api } from "./client";
import type { ConsoleList, ListParams } from "./console";

/** Categories, brands, services, content pages and inventory in the console: managers and owners. */

export function listCategories(api: Api, params: ListParams) {
  return api.get<ConsoleCategory[]>("/admin/categories", { query: params }) as Promise<ConsoleList<ConsoleCategory>>;
}

/** Every category (for the parent picker): the console list's largest page, sorted by English name. */
export function allCategories(api: Api) {
  return listCategories(api, { per_page: 100, sort: "name_en", dir: "asc" });
}

export function getCategory(api: Api, id: number) {
  return api.get<ConsoleCategory>(`/admin/categories/${id}`);
}

export function createCategory(api: Api, input: CategoryInput) {
  return api.post<ConsoleCategory>("/admin/categories", input);
}

export function updateCategory(api: Api, id: number, input: CategoryInput) {
  return api.put<ConsoleCategory>(`/admin/categories/${id}`, input);
}

export function deleteCategory(api: Api, id: number) {
  return api.delete<null>(`/admin/categories/${id}`);
}

export function listBrands(api: Api, params: ListParams) {
  return api.get<ConsoleBrand[]>("/admin/brands", { query: params }) as Promise<ConsoleList<ConsoleBrand>>;
}

export function getBrand(api: Api, id: number) {
  return api.get<ConsoleBrand>(`/admin/brands/${id}`);
}

export function createBrand(api: Api, input: BrandInput) {
  return api.post<ConsoleBrand>("/admin/brands", input);
}

export function updateBrand(api: Api, id: number, input: BrandInput) {
  return api.put<ConsoleBrand>(`/admin/brands/${id}`, input);
}

export function deleteBrand(api: Api, id: number) {
  return api.delete<null>(`/admin/brands/${id}`);
}

export function listServices(api: Api, params: ListParams) {
  return api.get<ConsoleService[]>("/admin/services", { query: params }) as Promise<ConsoleList<ConsoleService>>;
}

export function getService(api: Api, id: number) {
  return api.get<ConsoleService>(`/admin/services/${id}`);
}

export function createService(api: Api, input: ServiceInput) {
  return api.post<ConsoleService>("/admin/services", input);
}

export function updateService(api: Api, id: number, input: ServiceInput) {
  return api.put<ConsoleService>(`/admin/services/${id}`, input);
}

export function deleteService(api: Api, id: number) {
  return api.delete<null>(`/admin/services/${id}`);
}

export function listContentPages(api: Api, params: ListParams) {
  return api.get<ConsolePage[]>("/admin/pages", { query: params }) as Promise<ConsoleList<ConsolePage>>;
}

export function getContentPage(api: Api, id: number) {
  return api.get<ConsolePage>(`/admin/pages/${id}`);
}

export function createContentPage(api: Api, input: PageInput) {
  return api.post<ConsolePage>("/admin/pages", input);
}

export function updateContentPage(api: Api, id: number, input: PageInput) {
  return api.put<ConsolePage>(`/admin/pages/${id}`, input);
}

export function deleteContentPage(api: Api, id: number) {
  return api.delete<null>(`/admin/pages/${id}`);
}

export function listLowStock(api: Api, params: ListParams) {
  return api.get<StockProduct[]>("/admin/inventory/low-stock", { query: params }) as Promise<ConsoleList<StockProduct>>;
}

export function listAdjustments(api: Api, params: ListParams) {
  return api.get<InventoryAdjustment[]>("/admin/inventory/adjustments", { query: params }) as Promise<
    ConsoleList<InventoryAdjustment>
  >;
}

/** The adjustment form's product picker: by SKU or name. */
export function findStockProducts(api: Api, search: string) {
  return api.get<StockProduct[]>("/admin/inventory/products", { query: { search } });
}

export function adjustStock(api: Api, input: AdjustmentInput) {
  return api.post<InventoryAdjustment>("/admin/inventory/adjustments", input);
}
