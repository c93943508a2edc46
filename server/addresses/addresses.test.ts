import { describe, expect, it } from "vitest";
import type { SavedAddress } from "../../common/schemas/address.ts";
import { signUpViaApp } from "../../tests/accounts.ts";
import { setUpTestApp } from "../../tests/database.ts";
import { asUser, TEST_ADDRESS } from "../../tests/orders.ts";

const shop = setUpTestApp();

const post = (cookie: string, body: unknown) =>
  shop.app.request("/api/addresses", asUser(cookie, { method: "POST", body }));

describe("the address book", () => {
  it("saves a checked address, keeps one copy of the same address, and lists the last used first", async () => {
    const meera = await signUpViaApp(shop.app, "book@example.in");
    const first = await post(meera.cookie, TEST_ADDRESS);
    expect(first.status).toBe(201);
    const saved = ((await first.json()) as { address: SavedAddress }).address;
    expect(saved).toMatchObject({ ...TEST_ADDRESS, phone: "9876543210" });

    const office = { ...TEST_ADDRESS, line1: "Level 3, Prestige Tower", line2: "MG Road", pin: "560001" };
    await post(meera.cookie, office);
    const again = await post(meera.cookie, { ...TEST_ADDRESS, phone: "+91 98765-43210" });
    expect(((await again.json()) as { address: SavedAddress }).address.id).toBe(saved.id);

    const list = (await (await shop.app.request("/api/addresses", asUser(meera.cookie))).json()) as {
      addresses: SavedAddress[];
    };
    expect(list.addresses.map((address) => address.line1)).toEqual([TEST_ADDRESS.line1, office.line1]);
  });

  it("names each field that is wrong, including a PIN from another state", async () => {
    const meera = await signUpViaApp(shop.app, "wrong@example.in");
    const response = await post(meera.cookie, {
      ...TEST_ADDRESS,
      phone: "12345",
      pin: "400001",
      city: " ",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual({
      phone: "Enter a 10-digit Indian mobile number",
      city: "City or town is required",
    });
    const state = await post(meera.cookie, { ...TEST_ADDRESS, pin: "400001" });
    expect((await state.json()).error.fields).toEqual({ pin: "This PIN code is not in Karnataka" });
    const unknown = await post(meera.cookie, { ...TEST_ADDRESS, state: "Ceylon" });
    expect((await unknown.json()).error.fields).toEqual({ state: "Choose a state or union territory" });
    const extra = await post(meera.cookie, { ...TEST_ADDRESS, userId: "someone-else" });
    expect((await extra.json()).error.fields).toEqual({ userId: "is not accepted here" });
  });

  it("is private: another account cannot see or delete an address", async () => {
    const [owner, stranger] = [
      await signUpViaApp(shop.app, "owner@example.in"),
      await signUpViaApp(shop.app, "stranger@example.in"),
    ];
    const { address } = (await (await post(owner.cookie, TEST_ADDRESS)).json()) as { address: SavedAddress };
    const list = await (await shop.app.request("/api/addresses", asUser(stranger.cookie))).json();
    expect(list).toEqual({ addresses: [] });
    const remove = (cookie: string) =>
      shop.app.request(`/api/addresses/${address.id}`, asUser(cookie, { method: "DELETE" }));
    expect((await remove(stranger.cookie)).status).toBe(404);
    expect((await remove(owner.cookie)).status).toBe(204);
    expect((await shop.app.request("/api/addresses")).status).toBe(401);
  });
});
