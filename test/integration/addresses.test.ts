import { describe, expect, it } from "vitest";
import { call, register, SLOW_CRYPTO_TIMEOUT } from "../support/accounts";

const home = {
  label: "Home",
  name: "Sara Ahmed",
  phone: "+966 50 123 4567",
  city: "Riyadh",
  district: "Al Olaya",
  street: "King Fahd Road",
  building: "2929",
  postal_code: "12211",
  notes: "Ring twice",
};

describe("addresses", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("a signed-in user adds, lists, edits and deletes addresses", async () => {
    const user = await register();
    const opts = { token: user.token };
    expect((await call("GET", "/client/addresses", undefined, opts)).body.data).toEqual([]);

    const created = await call("POST", "/client/addresses", home, opts);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      ...home,
      phone: "+966501234567",
      additional_number: null,
      short_address: null,
      is_default: true,
    });

    const work = await call(
      "POST",
      "/client/addresses",
      { name: "Sara Ahmed", phone: "0501234567", city: "Jeddah", district: "Al Rawdah", street: "Tahlia Street" },
      opts,
    );
    expect(work.status).toBe(201);
    expect(work.body.data).toMatchObject({
      label: null,
      building: null,
      postal_code: null,
      notes: null,
      is_default: false,
    });

    const edited = await call(
      "PUT",
      `/client/addresses/${work.body.data.id}`,
      { label: "Work", is_default: true },
      opts,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: work.body.data.id, label: "Work", city: "Jeddah", is_default: true });

    const list = (await call("GET", "/client/addresses", undefined, opts)).body.data;
    expect(list.map((a: { id: number; is_default: boolean }) => [a.id, a.is_default])).toEqual([
      [work.body.data.id, true],
      [created.body.data.id, false],
    ]);

    const deleted = await call("DELETE", `/client/addresses/${work.body.data.id}`, undefined, opts);
    expect(deleted.status).toBe(200);
    // The default moved to the remaining address.
    expect((await call("GET", "/client/addresses", undefined, opts)).body.data).toEqual([
      { ...created.body.data, is_default: true },
    ]);
  });

  it("another user's address is not found: it can be neither edited nor deleted", async () => {
    const owner = await register();
    const other = await register();
    const address = (await call("POST", "/client/addresses", home, { token: owner.token })).body.data;
    const edit = await call("PUT", `/client/addresses/${address.id}`, { city: "Dammam" }, { token: other.token });
    expect(edit.status).toBe(404);
    expect(edit.body.message).toBe("Address not found.");
    const arabic = await call("DELETE", `/client/addresses/${address.id}`, undefined, {
      token: other.token,
      lang: "ar",
    });
    expect(arabic.status).toBe(404);
    expect(arabic.body.message).toBe("العنوان غير موجود.");
    expect((await call("GET", "/client/addresses", undefined, { token: other.token })).body.data).toEqual([]);
    expect((await call("GET", "/client/addresses", undefined, { token: owner.token })).body.data).toEqual([address]);
    expect(
      (await call("PUT", "/client/addresses/not-a-number", { city: "Dammam" }, { token: owner.token })).status,
    ).toBe(404);
  });

  it("refuses bad input with 422 field errors in the shopper's language", async () => {
    const user = await register();
    const empty = await call("POST", "/client/addresses", {}, { token: user.token });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(["city", "district", "name", "phone", "street"]);
    expect(empty.body.errors.city).toEqual(["City is required."]);
    const arabic = await call(
      "POST",
      "/client/addresses",
      { ...home, phone: "call me" },
      { token: user.token, lang: "ar" },
    );
    expect(arabic.body.errors.phone).toEqual(["يرجى إدخال رقم جوال صالح."]);
    const edit = await call("PUT", "/client/addresses/1", { is_default: "yes" }, { token: user.token });
    expect(edit.status).toBe(422);
  });

  it("needs a signed-in user", async () => {
    expect((await call("GET", "/client/addresses")).status).toBe(401);
    expect((await call("POST", "/client/addresses", home)).status).toBe(401);
    expect((await call("DELETE", "/client/addresses/1")).status).toBe(401);
  });
});
