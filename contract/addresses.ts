// A signed-in shopper's saved address as the backend answers it.
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts).

export interface Address {
  id: number;
  label: string | null;
  name: string;
  phone: string;
  city: string;
  district: string;
  street: string;
  /** The Saudi national address: the building's 4-digit number (older addresses: free text). */
  building: string | null;
  /** 5 digits. */
  postal_code: string | null;
  /** The national address's 4-digit additional number; absent from a backend that does not keep it. */
  additional_number?: string | null;
  /** The national short address, 4 letters and the building number ("RRRD2929"); absent as above. */
  short_address?: string | null;
  notes: string | null;
  is_default: boolean;
}

/** What a shopper sends to save an address (POST/PUT /client/addresses): the address without its id. */
export type AddressInput = Omit<Address, "id">;
