import { describe, expect, it } from "vitest";
import { phoneHref, type ShopConfig } from "../../../common/shop-config.ts";
import { fillHtmlPlaceholders, fillPlaceholders } from "./placeholders.ts";

const config: ShopConfig = {
  shopName: "Prakriti Naturals",
  brand: { colour: null, palette: null, logo: null },
  phone: "+91 98765 43210",
  email: "care@prakritinaturals.in",
  details: {
    legalName: "Prakriti Naturals Private Limited",
    address: null,
    phone: "+91 98765 43210",
    email: "care@prakritinaturals.in",
    gstin: null,
    fssaiLicence: null,
    grievanceOfficer: { name: "Meera Iyer", email: "grievance@prakritinaturals.in" },
    updatedAt: null,
  },
  heroSlides: [],
  banner: { visible: true, headline: "Flat 20% off", details: "", code: "GLOW20", shortLabel: "20% OFF" },
  shipping: { freeShippingMinPaise: 49900, shippingFeePaise: 4900, freeShippingBasis: "after_discount" },
  publicUrl: "https://prakritinaturals.in",
  whatsapp: false,
};

describe("fillPlaceholders", () => {
  it("replaces every placeholder, however often it occurs", () => {
    expect(fillPlaceholders("The {shopName} team: {phone}, {email}, {phone}", config)).toBe(
      "The Prakriti Naturals team: +91 98765 43210, care@prakritinaturals.in, +91 98765 43210",
    );
  });

  it("leaves other braces alone", () => {
    expect(fillPlaceholders("{name} and {Phone}", config)).toBe("{name} and {Phone}");
  });
});

describe("fillHtmlPlaceholders", () => {
  it("turns the phone number and e-mail address into links", () => {
    expect(fillHtmlPlaceholders("<p>Call {phone} or write to {email}.</p>", config)).toBe(
      '<p>Call <a href="tel:+919876543210" class="whitespace-nowrap">+91 98765 43210</a> or write to ' +
        '<a href="mailto:care@prakritinaturals.in">care@prakritinaturals.in</a>.</p>',
    );
  });

  it("links the grievance officer's own address, which the owner sets", () => {
    expect(fillHtmlPlaceholders("<p>Write to {grievanceEmail}.</p>", config)).toBe(
      '<p>Write to <a href="mailto:grievance@prakritinaturals.in">grievance@prakritinaturals.in</a>.</p>',
    );
    expect(fillPlaceholders("Officer: {grievanceEmail}", config)).toBe(
      "Officer: grievance@prakritinaturals.in",
    );
  });

  it("escapes the values, so a shop name cannot inject markup", () => {
    const html = fillHtmlPlaceholders("<p>{shopName}</p>", {
      ...config,
      shopName: 'A & B <img src=x onerror="x">',
    });
    expect(html).toBe("<p>A &amp; B &lt;img src=x onerror=&quot;x&quot;&gt;</p>");
  });
});

describe("phoneHref", () => {
  it("keeps only digits and the plus sign", () => {
    expect(phoneHref("+91 (98765) 43-210")).toBe("tel:+919876543210");
  });
});
