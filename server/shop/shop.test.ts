import { beforeAll, describe, expect, it } from "vitest";
import type { UpdateShopDetails } from "../../common/schemas/shop.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp } from "../../tests/database.ts";
import { detailsFromEnvironment } from "../../tests/shop-details.ts";
import { auditLog } from "../db/schema.ts";
import { getShopDetails, seedShopDetails } from "./shop.data.ts";

const shop = setUpTestApp();
let owner: TestAccount, staff: TestAccount, customer: TestAccount;
beforeAll(async () => {
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "shop"));
});

const api = apiCaller(shop, () => owner);

// 27AAPFU0939F1ZV: the sample GSTIN of GSTN's documentation, registered in Maharashtra (27).
const DETAILS: UpdateShopDetails = {
  legalName: "Prakriti Naturals Private Limited",
  addressLine1: "Plot 14, Shivaji Industrial Estate",
  addressLine2: "Baner Road",
  city: "Pune",
  pin: "411045",
  state: "Maharashtra",
  phone: "+91 20 4567 8900",
  email: "Care@PrakritiNaturals.in",
  gstin: "27aapfu0939f1zv",
  fssaiLicence: "11523998000123",
  grievanceOfficerName: "Meera Kulkarni",
  grievanceOfficerEmail: "grievance@prakritinaturals.in",
};

const auditEntries = async () =>
  (await shop.db.select().from(auditLog)).filter((entry) => entry.entityType === "shop_details");

describe("/api/admin/shop/details: who may", () => {
  it("answers 401 signed out, 403 to staff and customers, and changes nothing", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", DETAILS],
    ] as const) {
      expect((await api(method, "/admin/shop/details", body, null)).status).toBe(401);
      for (const who of [staff, customer]) {
        const refused = await api(method, "/admin/shop/details", body, who);
        expect(refused.status, `${method} as ${who.email}`).toBe(403);
        expect(refused.body.error.code).toBe("forbidden");
      }
    }
    expect((await getShopDetails(shop.db)).gstin).toBeNull();
    expect(await auditEntries()).toEqual([]);
  });
});

describe("the shop's details", () => {
  it("start as the environment's name, phone and e-mail, with nothing made up", async () => {
    const { status, body } = await api("GET", "/admin/shop/details");
    expect(status).toBe(200);
    expect(body).toEqual(
      detailsFromEnvironment({
        name: "Prakriti Naturals",
        phone: "+91 98765 43210",
        email: "care@prakritinaturals.in",
      }),
    );
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    const cases: [Record<string, unknown>, string, RegExp?][] = [
      [{ gstin: "27AAPFU0939F1ZW" }, "gstin", /check character/],
      [{ gstin: "27AAPFU0939F1Z" }, "gstin", /15 characters/],
      [{ gstin: "27AAPF10939F1ZV" }, "gstin", /not a GSTIN/],
      // A real GSTIN of Karnataka for a shop registered in Maharashtra.
      [{ gstin: "29AAGCB7383J1Z4" }, "gstin", /state code 29, not Maharashtra \(27\)/],
      [{ pin: "41104" }, "pin", /6 digits/],
      [{ pin: "011045" }, "pin", /6 digits/],
      [{ pin: "600020" }, "pin", /not in Maharashtra/],
      [{ state: "Bombay" }, "state"],
      [{ email: "care at prakriti" }, "email", /e-mail address/],
      [{ grievanceOfficerEmail: "nobody" }, "grievanceOfficerEmail", /e-mail address/],
      [{ fssaiLicence: "1152399800012" }, "fssaiLicence", /14 digits/],
      [{ fssaiLicence: "1152399800012A" }, "fssaiLicence", /14 digits/],
      [{ phone: "call us" }, "phone"],
      [{ legalName: "" }, "legalName", /required/],
      [{ addressLine1: "x".repeat(121) }, "addressLine1", /at most 120/],
      [{ city: "Pune\nEast" }, "city", /one line/],
      [{ role: "owner" }, "role", /not accepted/],
    ];
    for (const [change, field, message] of cases) {
      const { status, body } = await api("PUT", "/admin/shop/details", { ...DETAILS, ...change });
      expect(status, JSON.stringify(change)).toBe(400);
      expect(body.error.fields?.[field], JSON.stringify(change)).toBeDefined();
      if (message) expect(body.error.fields[field]).toMatch(message);
    }
    const { gstin, ...withoutGstin } = DETAILS;
    expect((await api("PUT", "/admin/shop/details", withoutGstin)).body.error.fields).toHaveProperty("gstin");
    expect((await getShopDetails(shop.db)).updatedAt).toBeNull();
    expect(await auditEntries()).toEqual([]);
  });

  it("saves the owner's form, audited, and the shop shows it at once", async () => {
    const before = await api("GET", "/config", undefined, null);
    expect(before.body.details.gstin).toBeNull();

    const { status, body } = await api("PUT", "/admin/shop/details", DETAILS);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      legalName: "Prakriti Naturals Private Limited",
      address: {
        line1: "Plot 14, Shivaji Industrial Estate",
        line2: "Baner Road",
        city: "Pune",
        pin: "411045",
        state: "Maharashtra",
        stateCode: "27",
      },
      phone: "+91 20 4567 8900",
      email: "care@prakritinaturals.in",
      gstin: "27AAPFU0939F1ZV",
      fssaiLicence: "11523998000123",
      grievanceOfficer: { name: "Meera Kulkarni", email: "grievance@prakritinaturals.in" },
    });
    expect(Date.parse(body.updatedAt)).not.toBeNaN();
    expect(await getShopDetails(shop.db)).toEqual(body);

    // The config answer is remembered; the table's trigger makes every instance forget it.
    await expect.poll(async () => (await api("GET", "/config", undefined, null)).body.details).toEqual(body);
    const config = (await api("GET", "/config", undefined, null)).body;
    expect(config.phone).toBe("+91 20 4567 8900");
    expect(config.email).toBe("care@prakritinaturals.in");

    const [entry, ...more] = await auditEntries();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorId: owner.userId, action: "update", entityId: "shop" });
    expect(entry?.before).toMatchObject({ gstin: null, address: null });
    expect(entry?.after).toMatchObject({ gstin: "27AAPFU0939F1ZV" });
  });

  it("saves the GSTIN and address without a grievance officer's name: no invoice needs the name", async () => {
    const { status, body } = await api("PUT", "/admin/shop/details", {
      ...DETAILS,
      grievanceOfficerName: "  ",
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      gstin: "27AAPFU0939F1ZV",
      grievanceOfficer: { name: null, email: "grievance@prakritinaturals.in" },
    });
    await api("PUT", "/admin/shop/details", DETAILS);
  });

  it("takes an empty GSTIN and FSSAI licence as none", async () => {
    const { status, body } = await api("PUT", "/admin/shop/details", {
      ...DETAILS,
      gstin: "",
      fssaiLicence: null,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ gstin: null, fssaiLicence: null });
    await api("PUT", "/admin/shop/details", DETAILS);
  });

  it("keeps the owner's values over the environment's on a restart", async () => {
    await seedShopDetails(shop.db, {
      SHOP_NAME: "Another Name",
      SHOP_PHONE: "+91 90000 00000",
      SHOP_EMAIL: "other@example.in",
    });
    expect(await getShopDetails(shop.db)).toMatchObject({
      legalName: "Prakriti Naturals Private Limited",
      phone: "+91 20 4567 8900",
    });
  });
});

describe("/api/admin/shop/banner", () => {
  const BANNER = {
    visible: true,
    headline: "Diwali: 25% off everything",
    details: "until Sunday.",
    code: "welcome10",
    shortLabel: "25% OFF",
  };

  it("answers 401 signed out and 403 to staff and customers, and changes nothing", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", BANNER],
    ] as const) {
      expect((await api(method, "/admin/shop/banner", body, null)).status).toBe(401);
      for (const who of [staff, customer]) {
        expect((await api(method, "/admin/shop/banner", body, who)).status).toBe(403);
      }
    }
    expect((await api("GET", "/config", undefined, null)).body.banner.code).toBe("GLOW20");
  });

  it("starts as the spec's GLOW20 offer", async () => {
    expect((await api("GET", "/admin/shop/banner")).body).toEqual({
      visible: true,
      headline: "Flat 20% off all products",
      details: "for a limited time.",
      code: "GLOW20",
      shortLabel: "20% OFF",
    });
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    await api("PATCH", "/admin/discount-codes/SAVE15", { active: false });
    const cases: [Record<string, unknown>, string, RegExp?][] = [
      [{ code: "NOSUCHCODE" }, "code", /no discount code NOSUCHCODE/],
      [{ code: "SAVE15" }, "code", /switched off/],
      [{ code: "a b" }, "code", /3 to 20 letters or digits/],
      [{ headline: " " }, "headline", /required/],
      [{ headline: "x".repeat(81) }, "headline", /at most 80/],
      [{ shortLabel: "" }, "shortLabel", /required/],
      [{ visible: "yes" }, "visible"],
      [{ colour: "red" }, "colour", /not accepted/],
    ];
    for (const [change, field, message] of cases) {
      const { status, body } = await api("PUT", "/admin/shop/banner", { ...BANNER, ...change });
      expect(status, JSON.stringify(change)).toBe(400);
      expect(body.error.fields?.[field], JSON.stringify(change)).toBeDefined();
      if (message) expect(body.error.fields[field]).toMatch(message);
    }
    expect((await api("GET", "/admin/shop/banner")).body.code).toBe("GLOW20");
  });

  it("saves the owner's banner, audited, and the shop shows it at once; hidden, it is gone", async () => {
    const { status, body } = await api("PUT", "/admin/shop/banner", BANNER);
    expect(status).toBe(200);
    expect(body).toEqual({ ...BANNER, code: "WELCOME10" });
    await expect.poll(async () => (await api("GET", "/config", undefined, null)).body.banner).toEqual(body);

    const hidden = await api("PUT", "/admin/shop/banner", { ...BANNER, visible: false, code: null });
    expect(hidden.body).toMatchObject({ visible: false, code: null });
    await expect
      .poll(async () => (await api("GET", "/config", undefined, null)).body.banner.visible)
      .toBe(false);

    const entries = (await shop.db.select().from(auditLog)).filter((entry) => entry.entityType === "banner");
    expect(entries).toHaveLength(2);
    expect(entries.map((entry) => entry.actorId)).toEqual([owner.userId, owner.userId]);
    expect(entries.some((entry) => (entry.before as { code: string }).code === "GLOW20")).toBe(true);
  });
});
