import { CONSENTS_PATH, type ConsentPurpose, type ConsentState } from "../../../contract/consents";
import type { Api } from "./client";

/** The signed-in shopper's consents (contract/consents.ts): read them, give or withdraw one. */

export const getConsents = (api: Api) => api.get<ConsentState>(CONSENTS_PATH);

export const setConsent = (api: Api, purpose: ConsentPurpose, granted: boolean) =>
  api.post<ConsentState>(CONSENTS_PATH, { purpose, granted });
