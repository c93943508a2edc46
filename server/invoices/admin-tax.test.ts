import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { TaxSettings } from "../../common/schemas/tax.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { auditLog, products } from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount, staff: TestAccount, customer: TestAccount;

beforeAll(async () => {
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "tax"));
});

describe("the owner's tax settings", () => {
  it("lists the seeded rates and every product's HSN and rate", async () => {
    const { status, body } = await callApi(shop.app, "GET", "/api/admin/tax", { as: owner });
    expect(status).toBe(200);
    const settings = body as TaxSettings;
    expect(settings.rates).toEqual([0, 5, 18, 40]);
    expect(settings.products).toHaveLength(21);
    expect(settings.products.find((product) => product.slug === "hair-growth-oil")).toMatchObject({
      hsnCode: "33059019",
      gstRate: 5,
    });
  });

  it("is the owner's alone: 401 signed out, 403 for staff and customers", async () => {
    expect((await callApi(shop.app, "GET", "/api/admin/tax")).status).toBe(401);
    expect((await callApi(shop.app, "GET", "/api/admin/tax", { as: staff })).status).toBe(403);
    const put = { hsnCode: "3305", gstRate: 5 };
    expect(
      (await callApi(shop.app, "PUT", "/api/admin/tax/products/bath-powder", { as: customer, body: put }))
        .status,
    ).toBe(403);
    expect(
      (await callApi(shop.app, "PUT", "/api/admin/tax/products/bath-powder", { as: staff, body: put }))
        .status,
    ).toBe(403);
  });

  it("changes a product's HSN and rate, with an audit entry", async () => {
    const { status } = await callApi(shop.app, "PUT", "/api/admin/tax/products/bath-powder", {
      as: owner,
      body: { hsnCode: "330730", gstRate: 5 },
    });
    expect(status).toBe(200);
    const [row] = await shop.db.select().from(products).where(eq(products.slug, "bath-powder"));
    expect(row).toMatchObject({ hsnCode: "330730", gstRateBp: 500 });
    const [entry] = await shop.db.select().from(auditLog).where(eq(auditLog.entityId, "bath-powder"));
    expect(entry).toMatchObject({
      entityType: "tax",
      actorEmail: "tax-owner@example.in",
      before: { hsnCode: "33073090", gstRate: 18 },
      after: { hsnCode: "330730", gstRate: 5 },
    });
  });

  it("refuses an HSN that is not 4, 6 or 8 digits and a rate not in the list, naming the field", async () => {
    for (const hsnCode of ["330", "33073", "3307309", "330730901", "33O7"]) {
      const { status, body } = await callApi(shop.app, "PUT", "/api/admin/tax/products/bath-powder", {
        as: owner,
        body: { hsnCode, gstRate: 18 },
      });
      expect(status).toBe(400);
      expect(body.error.message).toMatch(/^hsnCode: /);
    }
    const { status, body } = await callApi(shop.app, "PUT", "/api/admin/tax/products/bath-powder", {
      as: owner,
      body: { hsnCode: "3307", gstRate: 12 },
    });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^gstRate: /);
    expect(
      (
        await callApi(shop.app, "PUT", "/api/admin/tax/products/bath-powder", {
          as: owner,
          body: { hsnCode: "3307", gstRate: 18, name: "x" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await callApi(shop.app, "PUT", "/api/admin/tax/products/no-such-thing", {
          as: owner,
          body: { hsnCode: "3307", gstRate: 18 },
        })
      ).status,
    ).toBe(404);
    const [row] = await shop.db.select().from(products).where(eq(products.slug, "bath-powder"));
    expect(row).toMatchObject({ hsnCode: "330730", gstRateBp: 500 });
  });

  it("the owner adds and removes rates; a rate in use or 18 % stays", async () => {
    const added = await callApi(shop.app, "POST", "/api/admin/tax/rates", {
      as: owner,
      body: { gstRate: 0.25 },
    });
    expect(added.status).toBe(201);
    expect((added.body as TaxSettings).rates).toEqual([0, 0.25, 5, 18, 40]);
    expect(
      (await callApi(shop.app, "POST", "/api/admin/tax/rates", { as: owner, body: { gstRate: 0.25 } }))
        .status,
    ).toBe(409);
    expect(
      (await callApi(shop.app, "POST", "/api/admin/tax/rates", { as: owner, body: { gstRate: 0.125 } }))
        .status,
    ).toBe(400);
    expect(
      (
        await callApi(shop.app, "PUT", "/api/admin/tax/products/wax-powder", {
          as: owner,
          body: { hsnCode: "3307", gstRate: 0.25 },
        })
      ).status,
    ).toBe(200);
    expect((await callApi(shop.app, "DELETE", "/api/admin/tax/rates/0.25", { as: owner })).status).toBe(409);
    expect((await callApi(shop.app, "DELETE", "/api/admin/tax/rates/18", { as: owner })).status).toBe(409);
    const removed = await callApi(shop.app, "DELETE", "/api/admin/tax/rates/40", { as: owner });
    expect(removed.status).toBe(200);
    expect((removed.body as TaxSettings).rates).toEqual([0, 0.25, 5, 18]);
    expect((await callApi(shop.app, "DELETE", "/api/admin/tax/rates/40", { as: owner })).status).toBe(404);
  });
});
