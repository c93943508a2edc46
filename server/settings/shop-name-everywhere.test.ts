import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import type { UpdateShopSettings } from "../../common/schemas/settings.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { callApi, createTestApp, type TestApp } from "../../tests/database.ts";
import { smsMentioning, waitForMail } from "../../tests/mail.ts";
import { placeOrderRequest, putInCart, saveAddress, setStock } from "../../tests/orders.ts";
import { shopDetails } from "../db/schema.ts";

/**
 * Issue 41, point 6: after the owner renames the shop, the COD confirmation SMS, order SMS and mails (their
 * From name included) all carry the new name, never SHOP_NAME's.
 */
let shop: TestApp;
let owner: TestAccount;
let customer: TestAccount;

beforeAll(async () => {
  shop = await createTestApp({ COD_CONFIRM_HOURS: "24" });
  ({ owner, customer } = await signUpOwnerStaffAndCustomer(shop, "renamed"));
  await setStock(shop.db, "coconut-oil", 20);
});
afterAll(() => shop?.close());

const RENAMED: UpdateShopSettings = {
  shopName: "Vanya Herbals",
  brandColour: "#14532D",
  logo: null,
  shippingFeePaise: 4_900,
  freeShippingMinPaise: 49_900,
  freeShippingBasis: "after_discount",
};

const smsAbout = (number: string) => smsMentioning(shop.dataDir, number);

describe("a renamed shop", () => {
  it("asks for the COD confirmation by SMS, and mails, in the owner's name", async () => {
    expect(shop.deps.env.SHOP_NAME).toBe("Prakriti Naturals");
    const saved = await callApi(shop.app, "PUT", "/api/admin/settings", { body: RENAMED, as: owner });
    expect(saved.status).toBe(200);

    await putInCart(shop.db, customer.userId, [{ itemId: "coconut-oil", quantity: 1 }]);
    const placed = await placeOrderRequest(shop.app, customer.cookie, {
      addressId: await saveAddress(shop.app, customer.cookie),
      paymentMethod: "cod",
    });
    expect(placed.status).toBe(201);
    const { order } = (await placed.json()) as { order: OrderDetail };

    const [sms] = await smsAbout(order.number);
    expect(sms).toContain(`Vanya Herbals: please confirm your cash-on-delivery order ${order.number}`);
    expect(sms).not.toContain("Prakriti");

    const mail = await waitForMail(shop.dataDir, {
      to: customer.email,
      subject: new RegExp(`^Order ${order.number} placed$`),
    });
    expect(mail.fromName).toBe("Vanya Herbals");
    expect(mail.text).toContain("Vanya Herbals");
    expect(mail.text).not.toContain("Prakriti Naturals");
  });
});

describe("the legal name", () => {
  it("follows a rename while the owner has never saved the shop's details, and stays once they have", async () => {
    const details = async () =>
      (
        (await callApi(shop.app, "GET", "/api/admin/shop/details", { as: owner })).body as {
          legalName: string;
        }
      ).legalName;
    expect(await details()).toBe("Vanya Herbals");
    await shop.db.update(shopDetails).set({ legalName: "Vanya Herbals LLP", updatedBy: owner.userId });
    const renamed = await callApi(shop.app, "PUT", "/api/admin/settings", {
      body: { ...RENAMED, shopName: "Vanya" },
      as: owner,
    });
    expect(renamed.status).toBe(200);
    expect(await details()).toBe("Vanya Herbals LLP");
  });
});
