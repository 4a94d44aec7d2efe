import {
  ACCOUNT_ERASE_CODE_PATH,
  ACCOUNT_ERASE_PATH,
  ACCOUNT_EXPORT_PATH,
  consoleCustomerErasePath,
  consoleCustomerExportPath,
} from "../../../contract/pdpl";
import type { Api } from "./client";

/** The shopper's data rights (contract/pdpl.ts): the export file, and the account's erasure. */

export const downloadMyData = (api: Api) => api.file(ACCOUNT_EXPORT_PATH);

export const sendErasureCode = (api: Api) => api.post(ACCOUNT_ERASE_CODE_PATH);

export const eraseMyAccount = (api: Api, proof: { password: string } | { code: string }) =>
  api.post<{ erased: true }>(ACCOUNT_ERASE_PATH, proof);

/** Staff: a customer's file, and erasure on their request. */
export const downloadCustomerData = (api: Api, id: string) => api.file(consoleCustomerExportPath(id));

export const eraseCustomer = (api: Api, id: string, reason: string) =>
  api.post<{ erased: true }>(consoleCustomerErasePath(id), { reason });
