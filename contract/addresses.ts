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
  building: string | null;
  postal_code: string | null;
  notes: string | null;
  is_default: boolean;
}

/** What a shopper sends to save an address (POST/PUT /client/addresses): the address without its id. */
export type AddressInput = Omit<Address, "id">;
