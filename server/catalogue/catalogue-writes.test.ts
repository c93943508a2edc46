import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { stockOf } from "../../tests/orders.ts";

// The catalogue's NOTIFY reaches this instance a moment after the answer, or later: what the instance forgets
// before answering is what the saving tab can rely on (decision 026), so that is what is counted here.
const shop = setUpTestApp();
let owner: TestAccount;
let customer: TestAccount;

const api = (method: string, path: string, body: unknown, as: TestAccount) =>
  callApi(shop.app, method, `/api${path}`, { body, as });

beforeAll(async () => {
  ({ owner, customer } = await signUpOwnerStaffAndCustomer(shop, "catalogue-writes"));
});

let forgotten: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  forgotten?.mockRestore();
  forgotten = vi.spyOn(shop.deps.catalogue, "changedHere");
});

describe("a change to what the shop shows, made on this instance", () => {
  it("is forgotten here before the answer: stock, a page, the banner", async () => {
    const previousStock = await stockOf(shop.db, "coconut-oil");
    const stock = await api("PUT", "/admin/stock/product/coconut-oil", { stock: 7, previousStock }, owner);
    expect(stock.status).toBe(200);
    expect(forgotten).toHaveBeenCalledTimes(1);

    const page = await api(
      "POST",
      "/admin/pages",
      {
        slug: "catalogue-writes-page",
        title: "Amla through the year",
        description: "When amla is in season, and how it is kept.",
        author: "The {shopName} team",
        body: "Amla is *sour*.",
        published: true,
        publishedOn: null,
      },
      owner,
    );
    expect(page.status).toBe(201);
    expect(forgotten).toHaveBeenCalledTimes(2);

    const banner = {
      visible: true,
      headline: "Amla week",
      details: "until Sunday.",
      code: "welcome10",
      shortLabel: "AMLA",
    };
    const saved = await api("PUT", "/admin/shop/banner", banner, owner);
    expect(saved.status).toBe(200);
    // The banner is read back through the catalogue at once, as the owner's tab does.
    expect((await api("GET", "/config", undefined, owner)).body.banner.headline).toBe("Amla week");
    expect(forgotten).toHaveBeenCalledTimes(3);
  });

  it("is not forgotten for a read, a refused write, or a write the catalogue does not hold", async () => {
    expect((await api("GET", "/admin/stock", undefined, owner)).status).toBe(200);
    const refused = await api(
      "PUT",
      "/admin/stock/product/coconut-oil",
      { stock: -1, previousStock: 7 },
      owner,
    );
    expect(refused.status).toBe(400);
    const notTheirs = await api(
      "PUT",
      "/admin/stock/product/coconut-oil",
      { stock: 9, previousStock: 7 },
      customer,
    );
    expect(notTheirs.status).toBe(403);
    const code = await api(
      "POST",
      "/admin/discount-codes",
      { code: "WRITESDEAL", description: "Not the catalogue's", percent: 10 },
      owner,
    );
    expect(code.status).toBe(201);
    expect(forgotten).not.toHaveBeenCalled();
  });
});
