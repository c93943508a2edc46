import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";
import { composeMail } from "./mail-templates.ts";

const env = parseEnv({ PUBLIC_URL: "https://shop.example" });

describe("the shop's mail layout", () => {
  const mail = composeMail(env, {
    subject: "Your order <1042>",
    preview: "On its way",
    heading: "Thank you, Asha & family",
    paragraphs: ["We have packed <b>everything</b>."],
    action: { label: "Track the order", url: "https://shop.example/orders/1042?x=1&y=2" },
    details: [{ label: "Total", value: "₹1,199" }],
    footnotes: ["Questions? Reply to this e-mail."],
  });

  it("escapes every text it is given in the HTML part", () => {
    expect(mail.html).toContain("Thank you, Asha &amp; family");
    expect(mail.html).toContain("We have packed &lt;b&gt;everything&lt;/b&gt;.");
    expect(mail.html).not.toContain("<b>everything</b>");
    expect(mail.html).toContain('href="https://shop.example/orders/1042?x=1&amp;y=2"');
  });

  it("carries a readable text part with the same content and the bare link", () => {
    expect(mail.text).toContain("Thank you, Asha & family");
    expect(mail.text).toContain("Track the order:\nhttps://shop.example/orders/1042?x=1&y=2");
    expect(mail.text).toContain("Total: ₹1,199");
    expect(mail.text).toContain(env.SHOP_PHONE);
  });

  it("is branded with the shop's name, address and contact details", () => {
    expect(mail.subject).toBe("Your order <1042>");
    expect(mail.html).toContain(`>${env.SHOP_NAME}</a>`);
    expect(mail.html).toContain(`mailto:${env.SHOP_EMAIL}`);
    expect(mail.html).toContain('lang="en-IN"');
  });
});
