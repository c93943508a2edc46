import { describe, expect, it } from "vitest";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { detailsFromEnvironment } from "../../tests/shop-details.ts";

const shop = setUpTestApp();
const custom = setUpTestApp({
  SHOP_NAME: "Vanya Herbals",
  SHOP_PHONE: "+91 90000 11111",
  SHOP_EMAIL: "help@vanya.example",
});

/** GET /api/config for a shop whose owner has saved nothing yet. */
const configFromEnvironment = (brand: { name: string; phone: string; email: string }) => ({
  shopName: brand.name,
  brand: { colour: null, palette: null, logo: null },
  phone: brand.phone,
  email: brand.email,
  details: detailsFromEnvironment(brand),
  banner: {
    visible: true,
    headline: "Flat 20% off all products",
    details: "for a limited time.",
    code: "GLOW20",
    shortLabel: "20% OFF",
  },
  heroSlides: expect.any(Array),
  shipping: { freeShippingMinPaise: 49900, shippingFeePaise: 4900, freeShippingBasis: "after_discount" },
  publicUrl: expect.stringMatching(/^http/),
  whatsapp: false,
  whatsappReminders: false,
});

describe("GET /api/config", () => {
  it("returns the brand's name, phone and e-mail by default", async () => {
    const response = await shop.app.request("/api/config");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual(
      configFromEnvironment({
        name: "Prakriti Naturals",
        phone: "+91 98765 43210",
        email: "care@prakritinaturals.in",
      }),
    );
  });

  it("returns SHOP_NAME, SHOP_PHONE and SHOP_EMAIL from the environment as the details until the owner saves them, and nothing else", async () => {
    const response = await custom.app.request("/api/config");
    expect(await response.json()).toStrictEqual(
      configFromEnvironment({ name: "Vanya Herbals", phone: "+91 90000 11111", email: "help@vanya.example" }),
    );
  });

  it("gives the home page's five slides the shop shipped with, in their order", async () => {
    const { heroSlides } = await (await shop.app.request("/api/config")).json();
    expect(heroSlides.map((slide: { eyebrow: string }) => slide.eyebrow)).toEqual([
      "Hair care",
      "Face care",
      "Body care",
      "Milk range",
      "Combos & gifting",
    ]);
    expect(heroSlides[0]).toMatchObject({
      active: true,
      heading: "Stronger roots, the way our grandmothers knew",
      buttonLabel: "Shop Now",
      buttonTarget: "/#featured",
      image: { key: "hair-growth-oil-1", large: "/images/catalogue/hair-growth-oil-1-800.webp" },
      tone: "green",
    });
  });

  it("accepts only GET", async () => {
    const response = await shop.app.request("/api/config", jsonRequest({ method: "POST", body: {} }));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("not_found");
  });
});
