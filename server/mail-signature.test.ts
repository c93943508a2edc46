import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShopDetails } from "../common/schemas/shop.ts";
import { signUpWithRole, type TestAccount } from "../tests/accounts.ts";
import { callApi, createTestApp } from "../tests/database.ts";
import { readMails, type SentMail, waitForMail } from "../tests/mail.ts";
import { placeGuestOrderRequest } from "../tests/orders.ts";
import { parseEnv } from "./env.ts";
import { mailSignature } from "./mail-templates.ts";

const ENV_CONTACT = { SHOP_PHONE: "+91 90000 55555", SHOP_EMAIL: "hello@env-shop.example" };
const OWNERS = {
  legalName: "Prakriti Naturals Private Limited",
  phone: "+91 20 4567 8900",
  email: "care@prakritinaturals.in",
};

describe("the mail signature", () => {
  const env = parseEnv({ PUBLIC_URL: "https://shop.example", ...ENV_CONTACT });
  const details = (updatedAt: string | null): ShopDetails => ({
    ...OWNERS,
    address: null,
    gstin: null,
    fssaiLicence: null,
    grievanceOfficer: { name: null, email: OWNERS.email },
    updatedAt,
  });

  it("is the environment's until the owner has saved the shop's details", () => {
    const expected = { legalName: null, phone: ENV_CONTACT.SHOP_PHONE, email: ENV_CONTACT.SHOP_EMAIL };
    expect(mailSignature(env, null)).toEqual(expected);
    expect(mailSignature(env, details(null))).toEqual(expected);
  });

  it("is the owner's phone, e-mail and legal name once saved; a legal name that is the brand is not repeated", () => {
    expect(mailSignature(env, details("2026-11-20T10:00:00.000Z"))).toEqual(OWNERS);
    expect(
      mailSignature(env, { ...details("2026-11-20T10:00:00.000Z"), legalName: env.SHOP_NAME }).legalName,
    ).toBeNull();
  });
});

describe("order and account mails sign with the shop's details", () => {
  let shop: Awaited<ReturnType<typeof createTestApp>>;
  let owner: TestAccount;
  let guests = 0;

  beforeAll(async () => {
    shop = await createTestApp(ENV_CONTACT);
    owner = await signUpWithRole(shop, "signature-owner@example.in", "owner");
  });
  afterAll(() => shop.close());

  async function orderMail(): Promise<SentMail> {
    guests += 1;
    const email = `signature-guest${guests}@example.in`;
    const response = await placeGuestOrderRequest(shop.app, {
      email,
      phone: `9${String(600_000_000 + guests).padStart(9, "0")}`,
    });
    expect(response.status).toBe(201);
    return waitForMail(shop.dataDir, { to: email, subject: /placed/ });
  }

  async function signInLinkMail(): Promise<SentMail> {
    const before = (await readMails(shop.dataDir)).length;
    const asked = await callApi(shop.app, "POST", "/api/auth/sign-in/magic-link", {
      body: { email: owner.email, callbackURL: "/" },
    });
    expect(asked.status).toBe(200);
    return waitForMail(shop.dataDir, { to: owner.email, subject: /sign-in link/, after: before });
  }

  const expectSignedBy = (mail: SentMail, contact: { phone: string; email: string }, other: string[]) => {
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(contact.phone);
      expect(part).toContain(contact.email);
      for (const absent of other) expect(part).not.toContain(absent);
    }
  };

  it("uses SHOP_PHONE and SHOP_EMAIL while the owner has not saved the details", async () => {
    const envContact = { phone: ENV_CONTACT.SHOP_PHONE, email: ENV_CONTACT.SHOP_EMAIL };
    expectSignedBy(await orderMail(), envContact, [OWNERS.phone, "Sold by"]);
    expectSignedBy(await signInLinkMail(), envContact, [OWNERS.phone, "Sold by"]);
  });

  it("uses the owner's phone, e-mail and legal name once saved, in the next mails", async () => {
    const saved = await callApi(shop.app, "PUT", "/api/admin/shop/details", {
      as: owner,
      body: {
        ...OWNERS,
        addressLine1: "Plot 14, Shivaji Industrial Estate",
        addressLine2: "",
        city: "Pune",
        pin: "411045",
        state: "Maharashtra",
        gstin: null,
        fssaiLicence: null,
        grievanceOfficerName: "Meera Kulkarni",
        grievanceOfficerEmail: "grievance@prakritinaturals.in",
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const order = await orderMail();
    expectSignedBy(order, OWNERS, [ENV_CONTACT.SHOP_PHONE, ENV_CONTACT.SHOP_EMAIL]);
    expect(order.text).toContain(`sold by ${OWNERS.legalName}`);
    const link = await signInLinkMail();
    expectSignedBy(link, OWNERS, [ENV_CONTACT.SHOP_PHONE, ENV_CONTACT.SHOP_EMAIL]);
    expect(link.text).toContain(`Sold by ${OWNERS.legalName}`);
  });
});
