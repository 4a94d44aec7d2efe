import type { FieldData } from "../../../contract/rum";
import type { Api } from "./client";

/** The console's field data: p75 of real visits' Core Web Vitals over the last day. */
export function getFieldData(api: Api) {
  return api.get<FieldData>("/admin/rum");
}
