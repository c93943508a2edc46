import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandPalette } from "../../common/contrast.ts";
import type { HeroSlide } from "../../common/schemas/hero-slides.ts";
import type { ShopSettings, UpdateShopSettings } from "../../common/schemas/settings.ts";
import type { ShopConfig } from "../../common/shop-config.ts";
import { signUpOwnerStaffAndCustomer, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, callApi, setUpTestApp, startSecondInstance } from "../../tests/database.ts";
import { readMails, waitForMail } from "../../tests/mail.ts";
import { putInCart } from "../../tests/orders.ts";
import { auditLog } from "../db/schema.ts";
import { sweepUnusedUploads } from "../products/product-images.ts";
import { readSettings } from "./settings.data.ts";

// Two instances of the shop on one database, each with its own pool and listener, as two processes would be.
const shop = setUpTestApp({ SHIPPING_FEE_PAISE: "5900", FREE_SHIPPING_MIN_PAISE: "69900" });
let second: ReturnType<typeof startSecondInstance>;
let owner: TestAccount;
let staff: TestAccount;
let customer: TestAccount;
beforeAll(async () => {
  second = startSecondInstance(shop);
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "settings"));
});
afterAll(() => second?.end());

const api = apiCaller(shop, () => owner);

const SETTINGS: UpdateShopSettings = {
  shopName: "Vanya Herbals",
  brandColour: "#1D4ED8",
  logo: null,
  shippingFeePaise: 7_900,
  freeShippingMinPaise: 99_900,
  freeShippingBasis: "before_discount",
};

const auditEntries = async () =>
  (await shop.db.select().from(auditLog)).filter((entry) => entry.entityType === "settings");

describe("/api/admin/settings: who may", () => {
  it("answers 401 signed out, 403 to staff and customers, and changes nothing", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", SETTINGS],
    ] as const) {
      expect((await api(method, "/admin/settings", body, null)).status).toBe(401);
      for (const who of [staff, customer]) {
        const refused = await api(method, "/admin/settings", body, who);
        expect(refused.status, `${method} as ${who.email}`).toBe(403);
        expect(refused.body).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
      }
    }
    expect((await readSettings(shop.db, shop.env)).updatedAt).toBeNull();
    expect(await auditEntries()).toEqual([]);
  });
});

describe("the shop's settings", () => {
  it("start as the environment's values", async () => {
    const { status, body } = await api("GET", "/admin/settings");
    expect(status).toBe(200);
    expect(body).toEqual({
      shopName: "Prakriti Naturals",
      brandColour: null,
      logo: null,
      shipping: {
        shippingFeePaise: 5_900,
        freeShippingMinPaise: 69_900,
        freeShippingBasis: "after_discount",
      },
      updatedAt: null,
    } satisfies ShopSettings);
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    const cases: [Record<string, unknown>, string, RegExp?][] = [
      [{ shopName: "  " }, "shopName", /required/],
      [{ shopName: "x".repeat(61) }, "shopName", /at most 60/],
      [{ brandColour: "green" }, "brandColour", /like #166534/],
      [
        { brandColour: "#facc15" },
        "brandColour",
        /White text on buttons .* hard to read \(a contrast of 1\.\d\d:1, where text needs at least 4\.5:1\)/,
      ],
      [{ logo: "../etc/passwd" }, "logo", /uploaded image/],
      [{ logo: `uploads/${"0".repeat(32)}` }, "logo", /not an uploaded image/],
      [{ shippingFeePaise: -1 }, "shippingFeePaise", /below ₹0/],
      [{ shippingFeePaise: 49.5 }, "shippingFeePaise", /whole number/],
      [{ freeShippingMinPaise: "499" }, "freeShippingMinPaise", /number of paise/],
      [{ freeShippingBasis: "always" }, "freeShippingBasis", /after_discount or before_discount/],
      [{ total: 0 }, "total", /not accepted/],
    ];
    for (const [change, field, message] of cases) {
      const { status, body } = await api("PUT", "/admin/settings", { ...SETTINGS, ...change });
      expect(status, JSON.stringify(change)).toBe(400);
      expect(body.error.code, JSON.stringify(change)).toBe("invalid_request");
      expect(body.error.message, JSON.stringify(change)).toEqual(expect.any(String));
      expect(body.error.fields?.[field], JSON.stringify(change)).toBeDefined();
      if (message) expect(body.error.fields[field]).toMatch(message);
    }
    expect((await readSettings(shop.db, shop.env)).updatedAt).toBeNull();
    expect(await auditEntries()).toEqual([]);
  });

  it("saves the owner's settings, audited, and the prices and /api/config of both instances follow within a second", async () => {
    // Both instances remember /api/config once their listeners are up.
    for (const app of [shop.app, second.app]) await callApi(app, "GET", "/api/config");
    await expect.poll(() => second.deps.catalogue.listening() && shop.deps.catalogue.listening()).toBe(true);
    for (const app of [shop.app, second.app]) {
      expect(((await callApi(app, "GET", "/api/config")).body as ShopConfig).shopName).toBe(
        "Prakriti Naturals",
      );
    }

    const { status, body } = await api("PUT", "/admin/settings", SETTINGS);
    const savedAt = performance.now();
    expect(status).toBe(200);
    expect(body).toEqual({
      shopName: "Vanya Herbals",
      brandColour: "#1d4ed8",
      logo: null,
      shipping: {
        shippingFeePaise: 7_900,
        freeShippingMinPaise: 99_900,
        freeShippingBasis: "before_discount",
      },
      updatedAt: expect.any(String),
    });

    await expect
      .poll(async () => (await callApi(second.app, "GET", "/api/config")).body as ShopConfig, {
        timeout: 1_000,
        interval: 20,
      })
      .toMatchObject({
        shopName: "Vanya Herbals",
        brand: { colour: "#1d4ed8", palette: brandPalette("#1d4ed8"), logo: null },
        shipping: body.shipping,
      });
    const seenAfterMs = performance.now() - savedAt;
    expect(seenAfterMs).toBeLessThan(1_000);
    console.info(`second instance saw the settings after ${seenAfterMs.toFixed(0)} ms`);

    const [entry, ...more] = await auditEntries();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actorId: owner.userId,
      actorEmail: owner.email,
      entityId: "shop",
      action: "update",
      before: {
        shopName: "Prakriti Naturals",
        brandColour: null,
        logo: null,
        shippingFeePaise: 5_900,
        freeShippingMinPaise: 69_900,
        freeShippingBasis: "after_discount",
      },
      after: {
        shopName: "Vanya Herbals",
        brandColour: "#1d4ed8",
        logo: null,
        shippingFeePaise: 7_900,
        freeShippingMinPaise: 99_900,
        freeShippingBasis: "before_discount",
      },
    });
  });

  it("prices a shopper's checkout with the saved fee and threshold, on either instance", async () => {
    const shopper = await signUpViaApp(shop.app, "settings-shopper@example.in");
    // ₹499 of goods: below the ₹999 threshold, so the owner's ₹79 fee.
    await putInCart(shop.db, shopper.userId, [{ itemId: "natural-hair-dye", quantity: 1 }]);
    for (const app of [shop.app, second.app]) {
      const { status, body } = await callApi(app, "GET", "/api/checkout", { as: shopper });
      expect(status).toBe(200);
      expect(body.pricing).toMatchObject({ subtotalPaise: 49_900, shippingPaise: 7_900, totalPaise: 57_800 });
      expect(body).toMatchObject({ freeShippingMinPaise: 99_900, freeShippingBasis: "before_discount" });
    }
    // Two of them reach ₹998, still short by ₹1; three ship free.
    await putInCart(shop.db, shopper.userId, [{ itemId: "natural-hair-dye", quantity: 1 }]);
    const two = await callApi(shop.app, "GET", "/api/checkout", { as: shopper });
    expect(two.body.pricing).toMatchObject({ shippingPaise: 7_900, freeShippingShortfallPaise: 100 });
    await putInCart(shop.db, shopper.userId, [{ itemId: "natural-hair-dye", quantity: 1 }]);
    const three = await callApi(shop.app, "GET", "/api/checkout", { as: shopper });
    expect(three.body.pricing).toMatchObject({
      subtotalPaise: 149_700,
      shippingPaise: 0,
      totalPaise: 149_700,
    });
  });

  it("keeps a logo's transparency (no white square in dark mode) while a photo is still flattened onto white", async () => {
    // A wide logo: a blue bar on a transparent canvas.
    const png = await sharp({
      create: { width: 400, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: await sharp({ create: { width: 400, height: 40, channels: 3, background: "#1d4ed8" } })
            .png()
            .toBuffer(),
          left: 0,
          top: 80,
        },
      ])
      .png()
      .toBuffer();
    const pixelsOf = async (address: string) => {
      const served = await shop.app.request(address);
      expect(served.status).toBe(200);
      return sharp(Buffer.from(await served.arrayBuffer()))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
    };
    const at = (image: { data: Buffer; info: { width: number } }, x: number, y: number) => [
      ...image.data.subarray((y * image.info.width + x) * 4, (y * image.info.width + x) * 4 + 4),
    ];

    const logo = await api("POST", "/admin/product-images", {
      image: png.toString("base64"),
      purpose: "logo",
    });
    expect(logo.status).toBe(201);
    const logoPixels = await pixelsOf(logo.body.small);
    expect(at(logoPixels, 0, 0)[3]).toBe(0);
    // Fitted whole, not cropped: the bar's ends are still there, in the middle row.
    const [red, , blue, alpha] = at(logoPixels, 2, 200);
    expect(alpha).toBe(255);
    expect(blue).toBeGreaterThan(150);
    expect(red).toBeLessThan(80);

    const photo = await api("POST", "/admin/product-images", { image: png.toString("base64") });
    expect(photo.status).toBe(201);
    expect(photo.body.key).not.toBe(logo.body.key);
    expect(at(await pixelsOf(photo.body.small), 0, 0)).toEqual([255, 255, 255, 255]);
  });

  it("takes an uploaded logo, which the shop then shows and the sweep of unused uploads leaves alone", async () => {
    const logo = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#1d4ed8" } })
      .png()
      .toBuffer();
    const uploaded = await api("POST", "/admin/product-images", { image: logo.toString("base64") });
    expect(uploaded.status).toBe(201);
    const { status, body } = await api("PUT", "/admin/settings", { ...SETTINGS, logo: uploaded.body.key });
    expect(status).toBe(200);
    expect(body.logo).toMatchObject({
      key: uploaded.body.key,
      small: expect.stringMatching(/^\/images\/uploads\//),
    });
    await expect
      .poll(
        async () => ((await callApi(second.app, "GET", "/api/config")).body as ShopConfig).brand.logo?.key,
      )
      .toBe(uploaded.body.key);
    const served = await shop.app.request(body.logo.small);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");

    await sweepUnusedUploads(shop.db, new Date(Date.now() + 48 * 60 * 60_000));
    expect((await shop.app.request(body.logo.small)).status).toBe(200);
  });

  it("names the shop as the owner saved it in the mails written after the change", async () => {
    const before = (await readMails(shop.dataDir)).length;
    const asked = await callApi(shop.app, "POST", "/api/auth/sign-in/magic-link", {
      body: { email: customer.email, callbackURL: "/" },
    });
    expect(asked.status).toBe(200);
    const mail = await waitForMail(shop.dataDir, {
      to: customer.email,
      subject: /sign-in link/,
      after: before,
    });
    expect(mail.subject).toBe("Your sign-in link for Vanya Herbals");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("Vanya Herbals");
      expect(part).not.toContain("Prakriti Naturals");
    }
  });

  it("keeps the home page's slides: staff refused, bad ones named, the list saved in order with what is shown", async () => {
    const current = await api("GET", "/admin/settings/hero-slides");
    expect(current.status).toBe(200);
    const slides = current.body.slides.map(({ position: _, ...slide }: HeroSlide) => ({
      ...slide,
      image: slide.image.key,
    }));
    expect(slides).toHaveLength(5);
    expect((await api("PUT", "/admin/settings/hero-slides", { slides }, staff)).status).toBe(403);
    expect((await api("GET", "/admin/settings/hero-slides", undefined, staff)).status).toBe(403);

    const refusals: [unknown[], string, RegExp][] = [
      [
        [{ ...slides[0], buttonTarget: "https://elsewhere.example/" }],
        "slides.0.buttonTarget",
        /page of the shop/,
      ],
      [[{ ...slides[0], buttonTarget: "//elsewhere.example" }], "slides.0.buttonTarget", /page of the shop/],
      [[{ ...slides[0], heading: " " }], "slides.0.heading", /required/],
      [[{ ...slides[0], tone: "neon" }], "slides.0.tone", /Background must be one of/],
      [[{ ...slides[0], image: "not-a-picture-we-have" }], "slides.0.image", /not an uploaded image/],
      [[{ ...slides[0], active: false }], "slides", /at least one slide shown/],
      // server/validate.ts names an unknown key by itself, wherever it is.
      [[{ ...slides[0], price: 1 }], "price", /not accepted/],
    ];
    for (const [list, field, message] of refusals) {
      const { status, body } = await api("PUT", "/admin/settings/hero-slides", { slides: list });
      expect(status, field).toBe(400);
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.fields?.[field] ?? JSON.stringify(body.error), field).toMatch(message);
    }

    const monsoon = {
      ...slides[2],
      heading: "Monsoon hair care, back in stock",
      buttonLabel: "See the oils",
      buttonTarget: "/product/hair-growth-oil",
    };
    const saved = await api("PUT", "/admin/settings/hero-slides", {
      slides: [monsoon, slides[0], { ...slides[1], active: false }, slides[3], slides[4]],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.slides.map((slide: HeroSlide) => [slide.heading, slide.active])).toEqual([
      ["Monsoon hair care, back in stock", true],
      [slides[0].heading, true],
      [slides[1].heading, false],
      [slides[3].heading, true],
      [slides[4].heading, true],
    ]);
    await expect
      .poll(async () =>
        ((await callApi(second.app, "GET", "/api/config")).body as ShopConfig).heroSlides.map(
          (slide) => slide.heading,
        ),
      )
      .toEqual(["Monsoon hair care, back in stock", slides[0].heading, slides[3].heading, slides[4].heading]);
    const entries = (await auditEntries()).filter((entry) => entry.entityId === "hero_slides");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: owner.userId, action: "update_hero_slides" });
    const after = entries[0]?.after as { heading: string; image: string }[] | undefined;
    expect(after?.[0]).toMatchObject({ heading: "Monsoon hair care, back in stock", image: slides[2].image });
  });
});
