import { Hono, type Context } from "hono";
import { addressChanges, addressInput } from "../../../contract/inputs";
import type { BackendEnv } from "../env";
import { ok } from "../http";
import { say } from "../../../contract/server/i18n";
import { requireUser } from "../identity";
import {
  createAddress,
  deleteAddress,
  listAddresses,
  updateAddress,
  type AddressInput,
} from "../services/accounts/addresses";
import { readInput } from "../../../contract/server/validate";
import { msg } from "../messages";

/** Addresses of the signed-in user: /client/addresses CRUD. Another user's id is 404. */
export const addressesRoutes = new Hono<BackendEnv>();

/** The `{id}` path parameter as a positive whole number; anything else is not an address (404). */
function addressId(c: Context<BackendEnv>): number {
  const raw = c.req.param("id") ?? "";
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0;
}

addressesRoutes.get("/", async (c) => {
  const userId = await requireUser(c);
  return ok(c, await listAddresses(c.env.DB, userId));
});

addressesRoutes.post("/", async (c) => {
  const userId = await requireUser(c);
  const input: AddressInput = await readInput(c, "json", addressInput);
  const address = await createAddress(c.env.DB, userId, input, c.get("lang"));
  return ok(c, address, { status: 201, message: say(c.get("lang"), msg("accounts.addresses.saved")) });
});

addressesRoutes.put("/:id", async (c) => {
  const userId = await requireUser(c);
  // PUT accepts the fields to change; omitted ones keep their value.
  const changes: Partial<AddressInput> = await readInput(c, "json", addressChanges);
  const address = await updateAddress(c.env.DB, userId, addressId(c), changes, c.get("lang"));
  return ok(c, address, { message: say(c.get("lang"), msg("accounts.addresses.saved")) });
});

addressesRoutes.delete("/:id", async (c) => {
  const userId = await requireUser(c);
  await deleteAddress(c.env.DB, userId, addressId(c), c.get("lang"));
  return ok(c, null, { message: say(c.get("lang"), msg("accounts.addresses.deleted")) });
});
