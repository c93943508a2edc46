import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { Combo } from "../../common/catalogue.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";

const shop = setUpTestApp();
let owner: TestAccount;

beforeAll(async () => {
  owner = await signUpWithRole(shop, "combo-picture-owner@example.in", "owner");
});

const api = (method: string, path: string, body?: unknown) =>
  callApi(shop.app, method, `/api${path}`, { body, as: owner });

/** A photo uploaded the way product photos are, through /api/admin/product-images. */
async function uploadPhoto(red: number): Promise<string> {
  const bytes = await sharp({
    create: { width: 900, height: 600, channels: 3, background: { r: red, g: 140, b: 90 } },
  })
    .png()
    .toBuffer();
  const { status, body } = await api("POST", "/admin/product-images", { image: bytes.toString("base64") });
  expect(status).toBe(201);
  return body.key;
}

const shopCombo = async (id: string) => (await callApi(shop.app, "GET", `/api/combos/${id}`)).body as Combo;

/** The shop's catalogue is cached and forgotten on PostgreSQL's NOTIFY, which arrives a moment after the commit. */
const shownPicture = (id: string) => expect.poll(async () => (await shopCombo(id)).ownPicture);

describe("a combo's own picture", () => {
  it("is uploaded through the product photos' pipeline and shown on the combo's card and page", async () => {
    const before = await shopCombo("skincare-combo");
    expect(before.ownPicture).toBe(false);
    const key = await uploadPhoto(30);
    const saved = await api("PATCH", "/admin/combos/skincare-combo", { picture: key });
    expect(saved.status).toBe(200);
    expect(saved.body.picture).toEqual({ key, small: `/images/${key}-400.webp` });
    await shownPicture("skincare-combo").toBe(true);
    const after = await shopCombo("skincare-combo");
    expect(after).toMatchObject({
      ownPicture: true,
      image: { small: `/images/${key}-400.webp`, large: `/images/${key}-800.webp` },
    });
    // Its products keep their own pictures.
    expect(after.products.map((product) => product.image)).toEqual(
      before.products.map((product) => product.image),
    );
    const served = await shop.app.request(`/images/${key}-800.webp`);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/webp");
  });

  it("is optional: removing it brings back the products' pictures", async () => {
    const removed = await api("PATCH", "/admin/combos/skincare-combo", { picture: null });
    expect(removed.status).toBe(200);
    expect(removed.body.picture).toBeNull();
    await shownPicture("skincare-combo").toBe(false);
    const combo = await shopCombo("skincare-combo");
    expect(combo.image.small).toBe("/images/catalogue/skincare-combo-400.webp");
  });

  it("is given to a new combo when it is created", async () => {
    const key = await uploadPhoto(60);
    const created = await api("POST", "/admin/combos", {
      id: "pictured-combo",
      title: "Pictured combo",
      description: "Two favourites in one box, pictured together.",
      badge: "New Launch",
      benefits: ["Gentle", "Natural", "Giftable"],
      productSlugs: ["bath-powder", "face-glow-oil"],
      salePricePaise: 100_000,
      picture: key,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await shownPicture("pictured-combo").toBe(true);
  });

  it("refuses a picture that was not uploaded here (400 naming the field) and changes nothing", async () => {
    const key = await uploadPhoto(90);
    await api("PATCH", "/admin/combos/haircare-combo", { picture: key });
    for (const picture of [
      "uploads/0123456789abcdef0123456789abcdef",
      "haircare-combo",
      "https://example.com/a.jpg",
      7,
    ]) {
      const refused = await api("PATCH", "/admin/combos/haircare-combo", { picture });
      expect(refused.status, String(picture)).toBe(400);
      expect(refused.body.error.fields).toHaveProperty("picture");
    }
    expect((await api("GET", "/admin/combos/haircare-combo")).body.picture.key).toBe(key);
  });
});
