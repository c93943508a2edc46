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
  whatsappReminders: false,
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

describe("fillHtmlPlaceholders inside attributes", () => {
  // Values no shop should have, each trying to end the attribute it lands in and start markup of its own.
  const hostile: ShopConfig = {
    ...config,
    shopName: 'Tea "&" <b>Co</b>',
    email: 'x"><script>alert(1)</script>@evil.in',
    phone: '+91 98765" onclick="alert(1)',
  };

  it("fills a link's title and a picture's alt text as plain, escaped values, never as links", () => {
    expect(
      fillHtmlPlaceholders(
        '<p><a href="/contact" title="Write to {email}">Contact {shopName}</a></p>',
        config,
      ),
    ).toBe(
      '<p><a href="/contact" title="Write to care@prakritinaturals.in">Contact Prakriti Naturals</a></p>',
    );
    expect(
      fillHtmlPlaceholders('<p><img src="/logo.png" alt="{shopName}, {phone}" loading="lazy"></p>', config),
    ).toBe('<p><img src="/logo.png" alt="Prakriti Naturals, +91 98765 43210" loading="lazy"></p>');
    expect(
      fillHtmlPlaceholders(
        '<p><a href="/contact" title="{email} {phone}"><img src="/x.png" alt="{shopName}" title="{email}"></a></p>',
        hostile,
      ),
    ).toBe(
      '<p><a href="/contact" title="x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@evil.in +91 98765&quot; onclick=&quot;alert(1)">' +
        '<img src="/x.png" alt="Tea &quot;&amp;&quot; &lt;b&gt;Co&lt;/b&gt;" ' +
        'title="x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@evil.in"></a></p>',
    );
  });

  it("fills an address (href, src) percent-encoded: a phone number as its digits, an e-mail with its @", () => {
    expect(
      fillHtmlPlaceholders(
        '<p><a href="mailto:{email}">Write</a> or <a href="tel:{phone}">call</a></p>',
        config,
      ),
    ).toBe(
      '<p><a href="mailto:care@prakritinaturals.in">Write</a> or <a href="tel:+919876543210">call</a></p>',
    );
    expect(
      fillHtmlPlaceholders(
        '<p><a href="mailto:{email}?subject={shopName}">Write</a> <a href="tel:{phone}">call</a> ' +
          '<img src="/pictures/{shopName}.png" alt=""></p>',
        hostile,
      ),
    ).toBe(
      '<p><a href="mailto:x%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E@evil.in?subject=Tea%20%22%26%22%20%3Cb%3ECo%3C%2Fb%3E">Write</a> ' +
        '<a href="tel:+91987651">call</a> ' +
        '<img src="/pictures/Tea%20%22%26%22%20%3Cb%3ECo%3C%2Fb%3E.png" alt=""></p>',
    );
    // A value cannot turn a path of the shop into an address of another host.
    expect(
      fillHtmlPlaceholders('<a href="/{shopName}">home</a>', { ...config, shopName: "/evil.example" }),
    ).toBe('<a href="/%2Fevil.example">home</a>');
  });

  it("fills the words of a link as text, without a link inside the link", () => {
    expect(fillHtmlPlaceholders('<p><a href="/contact">Mail {email}</a>, or {email}</p>', config)).toBe(
      '<p><a href="/contact">Mail care@prakritinaturals.in</a>, or ' +
        '<a href="mailto:care@prakritinaturals.in">care@prakritinaturals.in</a></p>',
    );
    expect(fillHtmlPlaceholders('<p><a href="/contact">{email}</a></p>', hostile)).toBe(
      '<p><a href="/contact">x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@evil.in</a></p>',
    );
  });

  it("links a value in text by its encoded address, so the link's own href holds", () => {
    expect(fillHtmlPlaceholders("<p>{email} {phone}</p>", hostile)).toBe(
      '<p><a href="mailto:x%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E@evil.in">x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@evil.in</a> ' +
        '<a href="tel:+91987651" class="whitespace-nowrap">+91 98765&quot; onclick=&quot;alert(1)</a></p>',
    );
  });
});

describe("phoneHref", () => {
  it("keeps only digits and the plus sign", () => {
    expect(phoneHref("+91 (98765) 43-210")).toBe("tel:+919876543210");
  });
});
