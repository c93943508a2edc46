import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Combo } from "../../common/catalogue.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp } from "../../tests/database.ts";
import { auditLog, combos, products } from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount, staff: TestAccount, customer: TestAccount;
beforeAll(async () => {
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "combo"));
});

const api = apiCaller(shop, () => owner);

const priceOf = async (slug: string) =>
  (await shop.db.select({ price: products.pricePaise }).from(products).where(eq(products.slug, slug)))[0]
    ?.price ?? 0;

const NEW_COMBO = {
  id: "morning-ritual-combo",
  title: "Morning Ritual Combo",
  description: "Face wash powder and glow oil for a simple morning routine.",
  badge: "New Launch",
  benefits: ["Gentle cleanse", "Natural glow", "Two-step routine"],
  productSlugs: ["face-wash-powder", "face-glow-oil"],
  salePricePaise: 79900,
  stock: 20,
};

const stored = async (id: string) => (await shop.db.select().from(combos).where(eq(combos.id, id)))[0];
const publicCombos = async () => (await api("GET", "/combos", undefined, null)).body.items as Combo[];

describe("/api/admin/combos: who may", () => {
  it("answers 401 signed out, 403 to staff and customers, and writes nothing", async () => {
    const attempts: [string, string, unknown?][] = [
      ["GET", "/admin/combos"],
      ["GET", "/admin/combos/skincare-combo"],
      ["POST", "/admin/combos", NEW_COMBO],
      ["PATCH", "/admin/combos/skincare-combo", { salePricePaise: 100 }],
    ];
    for (const [method, path, body] of attempts) {
      expect((await api(method, path, body, null)).status, `${method} ${path}`).toBe(401);
      for (const who of [staff, customer]) {
        const refused = await api(method, path, body, who);
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body.error.code).toBe("forbidden");
      }
    }
    expect(await stored(NEW_COMBO.id)).toBeUndefined();
    expect((await stored("skincare-combo"))?.salePricePaise).toBe(119900);
  });
});

describe("the owner's combos", () => {
  it("lists the seeded combos with their products and the spec's prices", async () => {
    const { status, body } = await api("GET", "/admin/combos");
    expect(status).toBe(200);
    const skincare = body.items.find((combo: { id: string }) => combo.id === "skincare-combo");
    expect(skincare).toMatchObject({
      originalPricePaise: 149700,
      salePricePaise: 119900,
      savingsPaise: 29800,
      active: true,
    });
    expect(skincare.products.map((product: { slug: string }) => product.slug)).toEqual([
      "face-glow-oil",
      "face-wash-powder",
      "skin-brightening-pack",
    ]);
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    const total = (await priceOf("face-wash-powder")) + (await priceOf("face-glow-oil"));
    const cases: [Record<string, unknown>, string, RegExp?][] = [
      [{ productSlugs: [] }, "productSlugs", /2 or 3 products/],
      [{ productSlugs: ["face-glow-oil"] }, "productSlugs", /2 or 3 products/],
      [{ productSlugs: ["face-glow-oil", "face-glow-oil"] }, "productSlugs", /once/],
      [{ productSlugs: ["face-glow-oil", "no-such-oil"] }, "productSlugs", /no product no-such-oil/],
      [{ salePricePaise: 0 }, "salePricePaise", /more than ₹0/],
      [{ salePricePaise: -100 }, "salePricePaise"],
      [{ salePricePaise: 799.5 }, "salePricePaise"],
      [{ salePricePaise: total }, "salePricePaise", /below the products' total/],
      [{ salePricePaise: total + 10000 }, "salePricePaise", /below the products' total/],
      [{ originalPricePaise: 999900 }, "originalPricePaise", /not accepted/],
      [{ savingsPaise: 100 }, "savingsPaise", /not accepted/],
      [{ badge: "Sale" }, "badge"],
      [{ benefits: ["One", "Two"] }, "benefits"],
      [{ title: "" }, "title", /required/],
      [{ id: "Not An Id" }, "id"],
    ];
    for (const [change, field, message] of cases) {
      const { status, body } = await api("POST", "/admin/combos", { ...NEW_COMBO, ...change });
      expect(status, JSON.stringify(change)).toBe(400);
      expect(body.error.fields?.[field], JSON.stringify(change)).toBeDefined();
      if (message) expect(body.error.fields[field]).toMatch(message);
    }
    expect(await stored(NEW_COMBO.id)).toBeUndefined();
  });

  it("creates a combo priced from its products, audited, and the shop shows it at once", async () => {
    const total = (await priceOf("face-wash-powder")) + (await priceOf("face-glow-oil"));
    const { status, body } = await api("POST", "/admin/combos", NEW_COMBO);
    expect(status).toBe(201);
    expect(body).toMatchObject({
      id: "morning-ritual-combo",
      originalPricePaise: total,
      salePricePaise: 79900,
      savingsPaise: total - 79900,
      stock: 20,
      active: true,
    });
    await expect
      .poll(async () => (await publicCombos()).find((combo) => combo.id === NEW_COMBO.id)?.savingsPaise)
      .toBe(total - 79900);
    expect((await api("POST", "/admin/combos", NEW_COMBO)).status).toBe(409);
    const [entry] = (await shop.db.select().from(auditLog)).filter(
      (row) => row.entityType === "combo" && row.entityId === NEW_COMBO.id,
    );
    expect(entry).toMatchObject({ action: "create", actorId: owner.userId });
  });

  it("edits the products and sale price, working the original price out again", async () => {
    const slugs = ["face-wash-powder", "face-glow-oil", "skin-brightening-pack"];
    let total = 0;
    for (const slug of slugs) total += await priceOf(slug);
    const { status, body } = await api("PATCH", `/admin/combos/${NEW_COMBO.id}`, {
      productSlugs: slugs,
      salePricePaise: 99900,
      title: "Morning Ritual Trio",
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      title: "Morning Ritual Trio",
      originalPricePaise: total,
      savingsPaise: total - 99900,
    });
    const tooDear = await api("PATCH", `/admin/combos/${NEW_COMBO.id}`, { salePricePaise: total });
    expect(tooDear.status).toBe(400);
    expect(tooDear.body.error.fields).toHaveProperty("salePricePaise");
    expect((await stored(NEW_COMBO.id))?.salePricePaise).toBe(99900);
    expect((await api("PATCH", "/admin/combos/no-such-combo", { title: "X" })).status).toBe(404);
  });

  it("hides a combo, and refuses one of hidden products", async () => {
    const hidden = await api("PATCH", `/admin/combos/${NEW_COMBO.id}`, { active: false });
    expect(hidden.body.active).toBe(false);
    await expect
      .poll(async () => (await publicCombos()).some((combo) => combo.id === NEW_COMBO.id))
      .toBe(false);

    await shop.db.update(products).set({ active: false }).where(eq(products.slug, "coconut-oil"));
    const refused = await api("POST", "/admin/combos", {
      ...NEW_COMBO,
      id: "with-a-hidden-product",
      productSlugs: ["coconut-oil", "bath-powder"],
      salePricePaise: 10000,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.productSlugs).toMatch(/Coconut Oil is hidden/);
    expect(await stored("with-a-hidden-product")).toBeUndefined();
    // The body combo holds the coconut oil: it cannot be shown again until the product is.
    await api("PATCH", "/admin/combos/body-combo", { active: false });
    const shown = await api("PATCH", "/admin/combos/body-combo", { active: true });
    expect(shown.status).toBe(400);
    expect(shown.body.error.fields).toHaveProperty("productSlugs");
    expect((await stored("body-combo"))?.active).toBe(false);
  });
});
