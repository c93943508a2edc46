import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { waitForMail } from "../../tests/mail.ts";
import {
  type Customer,
  placeCodOrder,
  placeGuestOrderRequest,
  placeOrderRequest,
  putInCart,
  signUpWithAddress,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import { pdfText } from "../../tests/pdf-text.ts";
import { registerShopForGst, TEST_GSTIN } from "../../tests/shop-details.ts";
import { orders, shopDetails, taxDocumentLines, taxDocuments } from "../db/schema.ts";

const shop = setUpTestApp();
let staff: TestAccount;
let accounts = 0;

const registerShop = (gstin: string | null = TEST_GSTIN) =>
  registerShopForGst(shop.db, { addressLine2: "T. Nagar", gstin });

beforeAll(async () => {
  await registerShop();
  staff = await signUpWithRole(shop, "desk@example.in", "staff");
});

const customer = (address: typeof TEST_ADDRESS & { district?: string } = TEST_ADDRESS) =>
  signUpWithAddress(shop.app, `buyer${++accounts}@example.in`, address);

/** A cash-on-delivery order of a product and a combo with GLOW20: placed, not yet confirmed. */
const placeOrder = (who: Customer) =>
  placeCodOrder(
    shop,
    who,
    [
      { itemId: "bath-powder", quantity: 2 },
      { itemId: "haircare-combo", kind: "combo" },
    ],
    "GLOW20",
  );

const confirm = (number: string) =>
  callApi(shop.app, "POST", `/api/admin/orders/${number}/status`, {
    as: staff,
    body: { status: "confirmed" },
  });

async function download(path: string, who?: { cookie: string }) {
  const response = await shop.app.request(path, jsonRequest({ cookie: who?.cookie }));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function documentsOf(number: string) {
  const [order] = await shop.db.select().from(orders).where(eq(orders.number, number));
  if (!order) throw new Error(number);
  const documents = await shop.db.select().from(taxDocuments).where(eq(taxDocuments.orderId, order.id));
  return { order, documents };
}

describe("the tax invoice", () => {
  it("prints the FSSAI licence saved in the shop's details, for a food item (issue 30)", async () => {
    await shop.db.update(shopDetails).set({ fssaiLicence: "12419005000123" }).where(eq(shopDetails.id, 1));
    try {
      const meera = await customer();
      await putInCart(shop.db, meera.userId, [{ itemId: "badam-mix" }]);
      const response = await placeOrderRequest(shop.app, meera.cookie, {
        addressId: meera.addressId,
        paymentMethod: "cod",
      });
      expect(response.status).toBe(201);
      const { order } = (await response.json()) as { order: OrderDetail };
      expect((await confirm(order.number)).status).toBe(200);
      const text = await pdfText((await download(`/api/orders/${order.number}/invoice.pdf`, meera)).bytes);
      expect(text).toContain("Badam Mix");
      expect(text).toContain("FSSAI Lic. No.: 12419005000123");
    } finally {
      await shop.db.update(shopDetails).set({ fssaiLicence: null }).where(eq(shopDetails.id, 1));
    }
  });

  it("is issued when staff confirm a cash-on-delivery order, once, and adds up to the order's total", async () => {
    const meera = await customer();
    const order = await placeOrder(meera);
    expect((await download(`/api/orders/${order.number}/invoice.pdf`, meera)).response.status).toBe(404);

    expect((await confirm(order.number)).status).toBe(200);
    const { order: row, documents } = await documentsOf(order.number);
    expect(documents).toHaveLength(1);
    const [invoice] = documents;
    expect(invoice?.number).toMatch(/^PN\/\d{2}-\d{2}\/\d{6}$/);
    expect(invoice?.totalPaise).toBe(row.totalPaise);
    // Bengaluru from a Chennai shop: between states, IGST only.
    expect(invoice).toMatchObject({
      intraState: false,
      placeOfSupply: "Karnataka",
      cgstPaise: 0,
      sgstPaise: 0,
    });
    const lines = await shop.db
      .select()
      .from(taxDocumentLines)
      .where(eq(taxDocumentLines.documentId, invoice?.id ?? ""))
      .orderBy(taxDocumentLines.position);
    expect(lines.map((line) => [line.hsn, line.rateBp, line.unit])).toEqual([
      ["33073090", 1800, "NOS"],
      // The hair combo holds an oil at 5 % and two preparations at 18 %: the combo is taxed at 18 %.
      ["33059090", 1800, "SET"],
      ...(row.shippingPaise ? [["9968", 1800, "OTH"]] : []),
    ]);
    expect(lines.reduce((sum, line) => sum + line.discountPaise, 0)).toBe(row.discountPaise);
  });

  it("downloads as a PDF with what the GST rules ask for, for its customer and staff only", async () => {
    const meera = await customer();
    const order = await placeOrder(meera);
    await confirm(order.number);
    const { order: row, documents } = await documentsOf(order.number);
    const invoice = documents[0];
    if (!invoice) throw new Error("no invoice");

    const mine = await download(`/api/orders/${order.number}/invoice.pdf`, meera);
    expect(mine.response.status).toBe(200);
    expect(mine.response.headers.get("Content-Type")).toBe("application/pdf");
    expect(mine.response.headers.get("Content-Disposition")).toContain(
      `${invoice.number.replaceAll("/", "-")}.pdf`,
    );
    const text = await pdfText(mine.bytes);
    for (const expected of [
      "Tax Invoice",
      "Prakriti Naturals Private Limited",
      `GSTIN: ${TEST_GSTIN}`,
      invoice.number,
      order.number,
      "Meera Iyer",
      "Karnataka (29)",
      "33073090",
      "IGST",
      "18%",
      "Whether tax is payable on reverse charge: No",
      "Authorised signatory",
      "Amount in words: One thousand",
    ]) {
      expect(text).toContain(expected);
    }
    // The embedded Noto Sans prints the rupee sign (docs/decisions/044).
    expect(text).toContain(
      `Invoice total ₹${new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2 }).format(row.totalPaise / 100)}`,
    );

    // Someone else's order is not found, exactly like a number that does not exist; signed out is 401.
    const stranger = await customer();
    const theirs = await download(`/api/orders/${order.number}/invoice.pdf`, stranger);
    expect(theirs.response.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(theirs.bytes))).toMatchObject({
      error: { code: "not_found" },
    });
    expect((await download(`/api/orders/${order.number}/invoice.pdf`)).response.status).toBe(401);
    // A customer cannot use the admin's address; staff can.
    expect((await download(`/api/admin/orders/${order.number}/invoice.pdf`, meera)).response.status).toBe(
      403,
    );
    expect((await download(`/api/admin/orders/${order.number}/invoice.pdf`, staff)).response.status).toBe(
      200,
    );
    expect((await download(`/api/admin/orders/PN-2026-999999/invoice.pdf`, staff)).response.status).toBe(404);
  });

  it("within the shop's state is CGST and SGST in equal halves", async () => {
    const chennai = await customer({ ...TEST_ADDRESS, city: "Chennai", state: "Tamil Nadu", pin: "600040" });
    const order = await placeOrder(chennai);
    await confirm(order.number);
    const [invoice] = (await documentsOf(order.number)).documents;
    expect(invoice).toMatchObject({ intraState: true, igstPaise: 0 });
    expect(invoice?.cgstPaise).toBe(invoice?.sgstPaise);
    const text = await pdfText((await download(`/api/orders/${order.number}/invoice.pdf`, chennai)).bytes);
    expect(text).toContain("Tamil Nadu (33)");
    expect(text).toContain("CGST");
    expect(text).toContain("SGST");
  });

  it("names the buyer's district when the order has one that says more than the city", async () => {
    const ravi = await customer({
      ...TEST_ADDRESS,
      name: "Ravi Kumar",
      city: "Tambaram",
      district: "Chengalpattu",
      state: "Tamil Nadu",
      pin: "600045",
    });
    const order = await placeOrder(ravi);
    expect((await confirm(order.number)).status).toBe(200);
    const [invoice] = (await documentsOf(order.number)).documents;
    expect(invoice?.buyer.lines).toEqual([
      "12, Lotus Apartments, 3rd Cross",
      "Indiranagar",
      "Tambaram, Chengalpattu district 600045",
    ]);
    const text = await pdfText((await download(`/api/orders/${order.number}/invoice.pdf`, ravi)).bytes);
    expect(text).toContain("Tambaram, Chengalpattu district 600045");

    // An order from before districts were kept: the city and PIN alone.
    const meera = await customer();
    const older = await placeOrder(meera);
    await shop.db.update(orders).set({ shipDistrict: null }).where(eq(orders.number, older.number));
    expect((await confirm(older.number)).status).toBe(200);
    const [plain] = (await documentsOf(older.number)).documents;
    expect(plain?.buyer.lines.at(-1)).toBe("Bengaluru 560038");
  });

  it("a cancellation after invoicing issues a credit note in its own series, naming the invoice", async () => {
    const meera = await customer();
    const order = await placeOrder(meera);
    expect((await download(`/api/orders/${order.number}/credit-note.pdf`, meera)).response.status).toBe(404);
    await confirm(order.number);
    const cancel = await callApi(shop.app, "POST", `/api/orders/${order.number}/cancel`, {
      as: meera,
      body: { reason: "Ordered twice" },
    });
    expect(cancel.status).toBe(200);
    const { documents } = await documentsOf(order.number);
    const invoice = documents.find((document) => document.kind === "invoice");
    const credit = documents.find((document) => document.kind === "credit_note");
    expect(credit?.number).toMatch(/^CN\/\d{2}-\d{2}\/\d{6}$/);
    expect(credit).toMatchObject({
      invoiceId: invoice?.id,
      totalPaise: invoice?.totalPaise,
      reason: "Order cancelled",
    });
    const creditPdf = (await download(`/api/orders/${order.number}/credit-note.pdf`, meera)).bytes;
    const text = await pdfText(creditPdf);
    expect(text).toContain("Credit Note");
    expect(text).toContain(`Against invoice: ${invoice?.number}`);
  });

  it("an order cancelled before it was confirmed has neither", async () => {
    const meera = await customer();
    const order = await placeOrder(meera);
    await callApi(shop.app, "POST", `/api/orders/${order.number}/cancel`, { as: meera, body: {} });
    expect((await documentsOf(order.number)).documents).toEqual([]);
  });

  it("a shop without a GSTIN confirms orders but issues no tax invoice", async () => {
    await registerShop(null);
    try {
      const meera = await customer();
      const order = await placeOrder(meera);
      expect((await confirm(order.number)).status).toBe(200);
      expect((await documentsOf(order.number)).documents).toEqual([]);
    } finally {
      await registerShop();
    }
  });

  it("30 orders confirmed at the same moment get 30 consecutive invoice numbers", async () => {
    const buyers = await Promise.all(Array.from({ length: 30 }, () => customer()));
    const placed = await Promise.all(buyers.map((buyer) => placeOrder(buyer)));
    const before = await shop.db.select({ sequence: taxDocuments.sequence }).from(taxDocuments);
    const highest = Math.max(0, ...before.map((row) => row.sequence));
    const results = await Promise.all(placed.map((order) => confirm(order.number)));
    expect(results.map((result) => result.status)).toEqual(Array(30).fill(200));
    const numbers = (
      await Promise.all(placed.map(async (order) => (await documentsOf(order.number)).documents[0]?.sequence))
    ).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, index) => highest + index + 1));
  }, 180_000);
});

describe("the invoice beyond the account's order page", () => {
  it("goes with the shipped mail as a PDF, drawn when the mail is sent", async () => {
    const meera = await customer();
    const order = await placeOrder(meera);
    await confirm(order.number);
    const [invoice] = (await documentsOf(order.number)).documents;
    if (!invoice) throw new Error("no invoice");
    for (const status of ["packed"]) {
      const moved = await callApi(shop.app, "POST", `/api/admin/orders/${order.number}/status`, {
        as: staff,
        body: { status },
      });
      expect(moved.status).toBe(200);
    }
    const shipped = await callApi(shop.app, "POST", `/api/admin/orders/${order.number}/ship`, {
      as: staff,
      body: { courier: "Delhivery", trackingNumber: "DL-55123" },
    });
    expect(shipped.status).toBe(200);
    const mail = await waitForMail(shop.dataDir, {
      to: meera.email,
      subject: new RegExp(`^Order ${order.number} has shipped$`),
    });
    expect(mail.text).toContain(`Your tax invoice ${invoice.number} is attached as a PDF.`);
    expect(mail.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
      [`${invoice.number.replaceAll("/", "-")}.pdf`, "application/pdf"],
    ]);
    const text = await pdfText(new Uint8Array(mail.attachments[0]?.content ?? []));
    expect(text).toContain(invoice.number);
    expect(text).toContain(`GSTIN: ${TEST_GSTIN}`);
  });

  it("its credit note goes with the cancelled mail as a PDF; an uninvoiced order's mail has none", async () => {
    const meera = await customer();
    const order = await placeOrder(meera);
    await confirm(order.number);
    const cancel = await callApi(shop.app, "POST", `/api/orders/${order.number}/cancel`, {
      as: meera,
      body: {},
    });
    expect(cancel.status).toBe(200);
    const { documents } = await documentsOf(order.number);
    const invoice = documents.find((document) => document.kind === "invoice");
    const credit = documents.find((document) => document.kind === "credit_note");
    if (!invoice || !credit) throw new Error("no invoice or credit note");
    const mail = await waitForMail(shop.dataDir, {
      to: meera.email,
      subject: new RegExp(`^Order ${order.number} cancelled$`),
    });
    expect(mail.text).toContain(
      `Your credit note ${credit.number}, which reverses tax invoice ${invoice.number}, is attached as a PDF.`,
    );
    expect(mail.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
      [`${credit.number.replaceAll("/", "-")}.pdf`, "application/pdf"],
    ]);
    const text = await pdfText(new Uint8Array(mail.attachments[0]?.content ?? []));
    expect(text).toContain("Credit Note");
    expect(text).toContain(credit.number);
    expect(text).toContain(`Against invoice: ${invoice.number}`);

    // Cancelled before confirmation: no invoice, so no credit note to attach, and no word of one.
    const ravi = await customer();
    const early = await placeOrder(ravi);
    await callApi(shop.app, "POST", `/api/orders/${early.number}/cancel`, { as: ravi, body: {} });
    const plain = await waitForMail(shop.dataDir, {
      to: ravi.email,
      subject: new RegExp(`^Order ${early.number} cancelled$`),
    });
    expect(plain.attachments).toEqual([]);
    expect(plain.text).not.toContain("credit note");
  });

  it("its credit note goes with the mail that says the returned goods arrived", async () => {
    const meera = await customer();
    const order = await placeOrder(meera);
    await confirm(order.number);
    const move = async (path: string, body: Record<string, unknown>, as: TestAccount = staff) => {
      const moved = await callApi(shop.app, "POST", path, { as, body });
      expect(moved.status, path).toBe(200);
    };
    const admin = `/api/admin/orders/${order.number}`;
    await move(`${admin}/status`, { status: "packed" });
    await move(`${admin}/ship`, { courier: "Delhivery", trackingNumber: "DL-55124" });
    await move(`${admin}/status`, { status: "delivered" });
    await move(
      `/api/orders/${order.number}/return`,
      { reason: "The jar arrived cracked and leaking." },
      meera,
    );
    await move(`${admin}/status`, { status: "returned" });
    const { documents } = await documentsOf(order.number);
    const invoice = documents.find((document) => document.kind === "invoice");
    const credit = documents.find((document) => document.kind === "credit_note");
    if (!invoice || !credit) throw new Error("no invoice or credit note");
    expect(credit.reason).toBe("Goods returned");
    const mail = await waitForMail(shop.dataDir, {
      to: meera.email,
      subject: new RegExp(`^Return received for order ${order.number}$`),
    });
    expect(mail.text).toContain(`We have received the goods you sent back from your order ${order.number}.`);
    expect(mail.text).toContain(
      `Your credit note ${credit.number}, which reverses tax invoice ${invoice.number}`,
    );
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual([
      `${credit.number.replaceAll("/", "-")}.pdf`,
    ]);
    const text = await pdfText(new Uint8Array(mail.attachments[0]?.content ?? []));
    expect(text).toContain(credit.number);
    expect(text).toContain("Goods returned");
  });

  it("downloads from the guest order page with its signed link, and no other order's", async () => {
    const placeGuest = async (email: string, phone: string) => {
      const response = await placeGuestOrderRequest(shop.app, { email, phone });
      expect(response.status).toBe(201);
      return (await response.json()) as { order: OrderDetail; token: string };
    };
    const mine = await placeGuest("guest-one@example.in", "9812300001");
    const theirs = await placeGuest("guest-two@example.in", "9812300002");
    const path = (number: string, token: string, kind = "invoice") =>
      `/api/guest-orders/${number}/${kind}.pdf?token=${encodeURIComponent(token)}`;

    const early = await download(path(mine.order.number, mine.token));
    expect(early.response.status).toBe(404);
    await confirm(mine.order.number);
    const [invoice] = (await documentsOf(mine.order.number)).documents;
    const page = await callApi(
      shop.app,
      "GET",
      `/api/guest-orders/${mine.order.number}?token=${encodeURIComponent(mine.token)}`,
    );
    expect((page.body as { order: OrderDetail }).order.documents.invoice).toBe(invoice?.number);

    const ok = await download(path(mine.order.number, mine.token));
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get("Content-Type")).toBe("application/pdf");
    expect(await pdfText(ok.bytes)).toContain(invoice?.number ?? "missing");

    // Another order's token, a made-up order and a malformed token: refused in the error shape.
    const wrong = await download(path(mine.order.number, theirs.token));
    expect(wrong.response.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(wrong.bytes))).toMatchObject({
      error: { code: "order_link_not_found" },
    });
    const missing = await download(path("PN-2026-999999", mine.token));
    expect(missing.response.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(missing.bytes))).toMatchObject({
      error: { code: "order_link_not_found" },
    });
    const malformed = await download(path(mine.order.number, "not-a-token"));
    expect(malformed.response.status).toBe(400);
    expect((await download(path(mine.order.number, mine.token, "credit-note"))).response.status).toBe(404);
  });
});
