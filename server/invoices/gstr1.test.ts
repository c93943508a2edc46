import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { orderRowOf, placeCodOrder, signUpWithAddress, TEST_ADDRESS } from "../../tests/orders.ts";
import { registerShopForGst, TEST_GSTIN } from "../../tests/shop-details.ts";
import { type DocumentParty, taxDocumentLines, taxDocuments } from "../db/schema.ts";
import { exportGstr1 } from "./gstr1.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let staff: TestAccount;
let customer: TestAccount;
let accounts = 0;
const SUPPLIER: DocumentParty = {
  name: "Prakriti Naturals Private Limited",
  lines: ["14, Kamaraj Salai", "Chennai 600017"],
  state: "Tamil Nadu",
  stateCode: "33",
  gstin: TEST_GSTIN,
  phone: null,
};

/** A cash-on-delivery order, placed and not confirmed, so it has no document until a test writes one. */
async function placeOrder(address = TEST_ADDRESS) {
  const buyer = await signUpWithAddress(shop.app, `filer${++accounts}@example.in`, address);
  const { number } = await placeCodOrder(shop, buyer, [{ itemId: "bath-powder" }]);
  return { ...buyer, number, id: (await orderRowOf(shop.db, number)).id };
}

type Line = {
  hsn: string;
  kind?: "goods" | "shipping";
  description: string;
  quantity: number;
  unit: string;
  rateBp: number;
  taxable: number;
  igst?: number;
  cgst?: number;
};

/** Writes an issued document with exact figures, as issueInvoice and issueCreditNote store them. */
async function writeDocument(input: {
  kind: "invoice" | "credit_note";
  sequence: number;
  orderId: string;
  invoiceId?: string;
  at: string;
  state: string;
  buyerName?: string;
  reason?: string;
  lines: Line[];
}) {
  const prefix = input.kind === "invoice" ? "PN" : "CN";
  const intraState = input.state === "Tamil Nadu";
  const lines = input.lines.map((line, position) => {
    const cgst = line.cgst ?? 0;
    const igst = line.igst ?? 0;
    return {
      position,
      kind: line.kind ?? "goods",
      description: line.description,
      hsn: line.hsn,
      quantity: line.quantity,
      unit: line.unit,
      grossPaise: line.taxable + igst + 2 * cgst,
      discountPaise: 0,
      rateBp: line.rateBp,
      taxablePaise: line.taxable,
      cgstPaise: cgst,
      sgstPaise: cgst,
      igstPaise: igst,
      totalPaise: line.taxable + igst + 2 * cgst,
    };
  });
  const sum = (pick: (line: (typeof lines)[number]) => number) => lines.reduce((t, l) => t + pick(l), 0);
  const [document] = await shop.db
    .insert(taxDocuments)
    .values({
      kind: input.kind,
      number: `${prefix}/25-26/${String(input.sequence).padStart(6, "0")}`,
      financialYear: "25-26",
      sequence: input.sequence,
      orderId: input.orderId,
      invoiceId: input.invoiceId ?? null,
      reason: input.reason ?? null,
      issuedAt: new Date(input.at),
      supplier: SUPPLIER,
      buyer: {
        name: input.buyerName ?? "Meera Iyer",
        lines: ["12, Lotus Apartments"],
        state: input.state,
        stateCode: "",
        gstin: null,
        phone: null,
      },
      placeOfSupply: input.state,
      intraState,
      taxablePaise: sum((line) => line.taxablePaise),
      cgstPaise: sum((line) => line.cgstPaise),
      sgstPaise: sum((line) => line.sgstPaise),
      igstPaise: sum((line) => line.igstPaise),
      totalPaise: sum((line) => line.totalPaise),
    })
    .returning();
  if (!document) throw new Error("not written");
  await shop.db.insert(taxDocumentLines).values(lines.map((line) => ({ ...line, documentId: document.id })));
  return document;
}

const bathPowder = { hsn: "33073090", description: "Bath Powder", unit: "NOS", rateBp: 1800 };
const coconutOil = { hsn: "15131900", description: "Coconut Oil", unit: "NOS", rateBp: 500 };
const curryLeaves = { hsn: "07099990", description: "Fresh Curry Leaves", unit: "NOS", rateBp: 0 };

async function download(query: string, who: TestAccount | null) {
  const response = await shop.app.request(
    `/api/admin/tax/gstr1.csv?${query}`,
    jsonRequest({ cookie: who?.cookie }),
  );
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The file's records without the byte-order mark and header; the header separately. */
async function csvOf(query: string) {
  const { response, bytes } = await download(query, owner);
  expect(response.status).toBe(200);
  // A UTF-8 byte-order mark first, so spreadsheet programs read the file as UTF-8.
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header = "", ...rows] = new TextDecoder().decode(bytes).split("\r\n");
  expect(rows.pop()).toBe("");
  return { header, rows, response };
}

beforeAll(async () => {
  await registerShopForGst(shop.db, { legalName: SUPPLIER.name });
  owner = await signUpWithRole(shop, "owner@example.in", "owner");
  staff = await signUpWithRole(shop, "staff@example.in", "staff");
  customer = await signUpViaApp(shop.app, "customer@example.in");

  // January 2026 (India time) from a shop in Tamil Nadu: sales to Karnataka (IGST) and Tamil Nadu (CGST +
  // SGST) at 5 % and 18 %, a delivery charge, a credit note against a December invoice, and documents on
  // either side of the month's edges.
  const [december, first, second, last, february] = [
    await placeOrder(),
    await placeOrder(),
    await placeOrder(),
    await placeOrder(),
    await placeOrder(),
  ];
  if (!december || !first || !second || !last || !february) throw new Error("orders");
  const decemberInvoice = await writeDocument({
    kind: "invoice",
    sequence: 1,
    orderId: december.id,
    at: "2025-12-20T10:00:00+05:30",
    state: "Karnataka",
    lines: [{ ...bathPowder, quantity: 1, taxable: 3000, igst: 540 }],
  });
  await writeDocument({
    kind: "invoice",
    sequence: 2,
    orderId: first.id,
    at: "2026-01-01T00:00:00+05:30",
    state: "Karnataka",
    lines: [
      { ...bathPowder, quantity: 2, taxable: 10000, igst: 1800 },
      { ...coconutOil, quantity: 1, taxable: 20000, igst: 1000 },
      {
        hsn: "9968",
        kind: "shipping",
        description: "Delivery charges",
        quantity: 1,
        unit: "OTH",
        rateBp: 1800,
        taxable: 4153,
        igst: 747,
      },
    ],
  });
  await writeDocument({
    kind: "invoice",
    sequence: 3,
    orderId: second.id,
    at: "2026-01-15T12:00:00+05:30",
    state: "Tamil Nadu",
    lines: [
      { ...bathPowder, quantity: 1, taxable: 5084, cgst: 458 },
      { ...coconutOil, quantity: 3, taxable: 28572, cgst: 714 },
    ],
  });
  await writeDocument({
    kind: "invoice",
    sequence: 4,
    orderId: last.id,
    at: "2026-01-31T23:59:59+05:30",
    state: "Karnataka",
    buyerName: '=HYPERLINK("http://evil.example","Open")',
    lines: [{ ...bathPowder, quantity: 1, taxable: 5000, igst: 900 }],
  });
  await writeDocument({
    kind: "credit_note",
    sequence: 1,
    orderId: december.id,
    invoiceId: decemberInvoice.id,
    at: "2026-01-20T09:00:00+05:30",
    state: "Karnataka",
    reason: "@SUM(1+1)",
    lines: [{ ...bathPowder, quantity: 1, taxable: 3000, igst: 540 }],
  });
  await writeDocument({
    kind: "invoice",
    sequence: 5,
    orderId: february.id,
    at: "2026-02-01T00:00:00+05:30",
    state: "Karnataka",
    lines: [{ ...bathPowder, quantity: 1, taxable: 100000, igst: 18000 }],
  });
  // March: only a credit note, against February's invoice, so the month's B2C sales are negative.
  const februaryInvoice = await shop.db
    .select({ id: taxDocuments.id })
    .from(taxDocuments)
    .where(eq(taxDocuments.orderId, february.id));
  await writeDocument({
    kind: "credit_note",
    sequence: 2,
    orderId: february.id,
    invoiceId: februaryInvoice[0]?.id,
    at: "2026-03-02T10:00:00+05:30",
    state: "Karnataka",
    reason: "Goods returned",
    lines: [{ ...bathPowder, quantity: 1, taxable: 100000, igst: 18000 }],
  });

  // October 2025: a large inter-state invoice (B2C large) with a nil-rated line, a large intra-state one and
  // two inter-state ones of at most ₹1,00,000 (B2C small); November: the large one's credit note.
  const [large, largeIntra, small, limit, july, august] = [
    await placeOrder(),
    await placeOrder(),
    await placeOrder(),
    await placeOrder(),
    await placeOrder(),
    await placeOrder(),
  ];
  if (!large || !largeIntra || !small || !limit || !july || !august) throw new Error("orders");
  const largeInvoice = await writeDocument({
    kind: "invoice",
    sequence: 10,
    orderId: large.id,
    at: "2025-10-06T11:00:00+05:30",
    state: "Karnataka",
    lines: [
      { ...bathPowder, quantity: 50, taxable: 9_000_000, igst: 1_620_000 },
      { ...coconutOil, quantity: 1, taxable: 20_000, igst: 1_000 },
      { ...curryLeaves, quantity: 2, taxable: 5_000 },
    ],
  });
  await writeDocument({
    kind: "invoice",
    sequence: 11,
    orderId: largeIntra.id,
    at: "2025-10-07T11:00:00+05:30",
    state: "Tamil Nadu",
    lines: [
      { ...bathPowder, quantity: 50, taxable: 9_000_000, cgst: 810_000 },
      { ...curryLeaves, quantity: 1, taxable: 3_000 },
    ],
  });
  await writeDocument({
    kind: "invoice",
    sequence: 12,
    orderId: small.id,
    at: "2025-10-08T11:00:00+05:30",
    state: "Karnataka",
    lines: [{ ...bathPowder, quantity: 1, taxable: 5_000, igst: 900 }],
  });
  // Exactly ₹1,00,000 does not exceed the limit.
  await writeDocument({
    kind: "invoice",
    sequence: 13,
    orderId: limit.id,
    at: "2025-10-31T23:00:00+05:30",
    state: "Karnataka",
    lines: [{ ...bathPowder, quantity: 47, taxable: 8_474_576, igst: 1_525_424 }],
  });
  await writeDocument({
    kind: "credit_note",
    sequence: 10,
    orderId: large.id,
    invoiceId: largeInvoice.id,
    at: "2025-11-05T10:00:00+05:30",
    state: "Karnataka",
    reason: "Goods returned",
    lines: [
      { ...bathPowder, quantity: 50, taxable: 9_000_000, igst: 1_620_000 },
      { ...coconutOil, quantity: 1, taxable: 20_000, igst: 1_000 },
      { ...curryLeaves, quantity: 2, taxable: 5_000 },
    ],
  });
  // ₹2,00,000 to another state: B2C (small) in July 2024, under the old ₹2,50,000 limit; large in August.
  for (const [order, sequence, at] of [
    [july, 20, "2024-07-31T23:59:00+05:30"],
    [august, 21, "2024-08-01T00:00:00+05:30"],
  ] as const) {
    await writeDocument({
      kind: "invoice",
      sequence,
      orderId: order.id,
      at,
      state: "Karnataka",
      lines: [{ ...bathPowder, quantity: 90, taxable: 16_949_153, igst: 3_050_847 }],
    });
  }
}, 180_000);

describe("the GSTR-1 export", () => {
  it("sums B2C (small) by place of supply and rate, net of the month's credit notes, to the paisa", async () => {
    const { header, rows, response } = await csvOf("month=2026-01&section=b2cs");
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="gstr1-2026-01-b2cs.csv"');
    expect(header).toBe(
      "Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount,E-Commerce GSTIN",
    );
    expect(rows).toEqual([
      "OE,29-Karnataka,,5,200.00,10.00,0.00,0.00,0.00,",
      // 100.00 + 41.53 delivery + 50.00 on the 31st at 23:59, less the 30.00 credited from December.
      "OE,29-Karnataka,,18,161.53,29.07,0.00,0.00,0.00,",
      "OE,33-Tamil Nadu,,5,285.72,0.00,7.14,7.14,0.00,",
      "OE,33-Tamil Nadu,,18,50.84,0.00,4.58,4.58,0.00,",
    ]);
  });

  it("summarises by HSN, rate and unit, the delivery charge as a service", async () => {
    const { header, rows } = await csvOf("month=2026-01&section=hsn");
    expect(header).toBe(
      "HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount",
    );
    expect(rows).toEqual([
      "15131900,Coconut Oil,NOS-NUMBERS,4,510.00,5,485.72,10.00,7.14,7.14,0.00",
      "33073090,Bath Powder,NOS-NUMBERS,3,201.60,18,170.84,21.60,4.58,4.58,0.00",
      "9968,Delivery charges,NA,0,49.00,18,41.53,7.47,0.00,0.00,0.00",
    ]);
  });

  it("gives each series' range for table 13, nothing cancelled", async () => {
    const { header, rows } = await csvOf("month=2026-01&section=docs");
    expect(header).toBe("Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled");
    expect(rows).toEqual([
      "Invoices for outward supply,PN/25-26/000002,PN/25-26/000004,3,0",
      "Credit Note,CN/25-26/000001,CN/25-26/000001,1,0",
    ]);
  });

  it("lists every document of the month, formula-safe", async () => {
    const { header, rows } = await csvOf("month=2026-01&section=documents");
    expect(header).toMatch(/^Nature of Document,Document Number,Document Date,Order Number,Receiver Name,/);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(
      /^Invoices for outward supply,PN\/25-26\/000002,01-Jan-2026,PN-\d+-\d+,Meera Iyer,,,,29-Karnataka,341\.53,35\.47,0\.00,0\.00,0\.00,377\.00$/,
    );
    expect(rows[1]).toContain(",15-Jan-2026,");
    expect(rows[1]).toMatch(/,33-Tamil Nadu,336\.56,0\.00,11\.72,11\.72,0\.00,360\.00$/);
    // A leading = or @ is defused with an apostrophe, and quotes inside a cell are doubled.
    expect(rows[2]).toContain(`,"'=HYPERLINK(""http://evil.example"",""Open"")",`);
    expect(rows[2]).toContain(",31-Jan-2026,");
    expect(rows[3]).toMatch(
      /^Credit Note,CN\/25-26\/000001,20-Jan-2026,PN-\d+-\d+,Meera Iyer,PN\/25-26\/000001,20-Dec-2025,'@SUM\(1\+1\),29-Karnataka,30\.00,5\.40,0\.00,0\.00,0\.00,35\.40$/,
    );
  });

  it("reads the list in batches by keyset, across both series, with nothing missed or repeated", async () => {
    const read = async (batchSize: number) => {
      let text = "";
      for await (const piece of await exportGstr1(
        shop.db,
        { month: "2026-01", section: "documents" },
        { batchSize },
      )) {
        text += piece;
      }
      return text;
    };
    const whole = await read(1000);
    expect(await read(1)).toBe(whole);
    expect(await read(3)).toBe(whole);
  });

  it("writes a month whose credit notes exceed its sales as negative numbers, not defused text", async () => {
    const { rows } = await csvOf("month=2026-03&section=b2cs");
    expect(rows).toEqual(["OE,29-Karnataka,,18,-1000.00,-180.00,0.00,0.00,0.00,"]);
    const hsn = await csvOf("month=2026-03&section=hsn");
    expect(hsn.rows).toEqual([
      "33073090,Bath Powder,NOS-NUMBERS,-1,-1180.00,18,-1000.00,-180.00,0.00,0.00,0.00",
    ]);
  });

  it("takes the month in India time: February starts at midnight IST", async () => {
    const { rows } = await csvOf("month=2026-02&section=docs");
    expect(rows).toEqual(["Invoices for outward supply,PN/25-26/000005,PN/25-26/000005,1,0"]);
    const empty = await csvOf("month=2025-11&section=b2cs");
    expect(empty.rows).toEqual([]);
  });

  it("covers an order confirmed and cancelled today: the invoice and its credit note net to nothing", async () => {
    const order = await placeOrder({ ...TEST_ADDRESS, state: "Tamil Nadu", city: "Chennai", pin: "600040" });
    const confirm = await callApi(shop.app, "POST", `/api/admin/orders/${order.number}/status`, {
      as: staff,
      body: { status: "confirmed" },
    });
    expect(confirm.status).toBe(200);
    const cancel = await callApi(shop.app, "POST", `/api/orders/${order.number}/cancel`, {
      as: order,
      body: {},
    });
    expect(cancel.status).toBe(200);
    const month = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 7);
    const documents = await csvOf(`month=${month}&section=documents`);
    expect(documents.rows).toHaveLength(2);
    expect(documents.rows[0]).toMatch(
      new RegExp(`^Invoices for outward supply,PN/\\d\\d-\\d\\d/\\d{6},.*,${order.number},`),
    );
    expect(documents.rows[1]).toMatch(new RegExp(`^Credit Note,CN/\\d\\d-\\d\\d/\\d{6},.*,${order.number},`));
    const b2cs = await csvOf(`month=${month}&section=b2cs`);
    expect(b2cs.rows).toEqual(["OE,33-Tamil Nadu,,18,0.00,0.00,0.00,0.00,0.00,"]);
  });

  it("keeps B2C (small) to what is not large, at rates above 0 %", async () => {
    const { rows } = await csvOf("month=2025-10&section=b2cs");
    expect(rows).toEqual([
      // The ₹1,00,000 invoice and the ₹59.00 one; the ₹1,06,460 invoice is B2C (large).
      "OE,29-Karnataka,,18,84795.76,15263.24,0.00,0.00,0.00,",
      // Intra-state stays here however large; its 0 % line is table 8's.
      "OE,33-Tamil Nadu,,18,90000.00,0.00,8100.00,8100.00,0.00,",
    ]);
  });

  it("lists an inter-state invoice over ₹1,00,000 as B2C (large), one row per rate", async () => {
    const { header, rows, response } = await csvOf("month=2025-10&section=b2cl");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="gstr1-2025-10-b2cl.csv"');
    expect(header).toBe(
      "Invoice Number,Invoice date,Invoice Value,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Integrated Tax Amount,Cess Amount,E-Commerce GSTIN",
    );
    // The invoice value counts the 0 % line (50.00): 90000 + 16200 + 200 + 10 + 50.
    expect(rows).toEqual([
      "PN/25-26/000010,06-Oct-2025,106460.00,29-Karnataka,,5,200.00,10.00,0.00,",
      "PN/25-26/000010,06-Oct-2025,106460.00,29-Karnataka,,18,90000.00,16200.00,0.00,",
    ]);
    expect((await csvOf("month=2025-11&section=b2cl")).rows).toEqual([]);
  });

  it("puts a credit note against a B2C (large) invoice in CDNUR, not netted in B2C (small)", async () => {
    const { header, rows } = await csvOf("month=2025-11&section=cdnur");
    expect(header).toBe(
      "UR Type,Note Number,Note Date,Note Type,Place Of Supply,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Integrated Tax Amount,Cess Amount",
    );
    expect(rows).toEqual([
      "B2CL,CN/25-26/000010,05-Nov-2025,C,29-Karnataka,106460.00,,5,200.00,10.00,0.00",
      "B2CL,CN/25-26/000010,05-Nov-2025,C,29-Karnataka,106460.00,,18,90000.00,16200.00,0.00",
    ]);
    expect((await csvOf("month=2025-11&section=b2cs")).rows).toEqual([]);
    // January's credit note reverses a small invoice: netted in B2C (small), so not here.
    expect((await csvOf("month=2026-01&section=cdnur")).rows).toEqual([]);
  });

  it("used the ₹2,50,000 limit for invoices before August 2024", async () => {
    expect((await csvOf("month=2024-07&section=b2cl")).rows).toEqual([]);
    expect((await csvOf("month=2024-07&section=b2cs")).rows).toEqual([
      "OE,29-Karnataka,,18,169491.53,30508.47,0.00,0.00,0.00,",
    ]);
    expect((await csvOf("month=2024-08&section=b2cl")).rows).toEqual([
      "PN/25-26/000021,01-Aug-2024,200000.00,29-Karnataka,,18,169491.53,30508.47,0.00,",
    ]);
    expect((await csvOf("month=2024-08&section=b2cs")).rows).toEqual([]);
  });

  it("sums nil-rated lines for table 8 by inter- and intra-state, net of credit notes", async () => {
    const { header, rows } = await csvOf("month=2025-10&section=exempt");
    expect(header).toBe(
      "Description,Nil Rated Supplies,Exempted(other than nil rated/non GST supply),Non-GST Supplies",
    );
    expect(rows).toEqual([
      "Inter-State supplies to registered persons,0.00,0.00,0.00",
      "Intra-State supplies to registered persons,0.00,0.00,0.00",
      "Inter-State supplies to unregistered persons,50.00,0.00,0.00",
      "Intra-State supplies to unregistered persons,30.00,0.00,0.00",
    ]);
    const november = await csvOf("month=2025-11&section=exempt");
    expect(november.rows.slice(2)).toEqual([
      "Inter-State supplies to unregistered persons,-50.00,0.00,0.00",
      "Intra-State supplies to unregistered persons,0.00,0.00,0.00",
    ]);
    // The HSN summary still counts them (table 12 covers every supply), at rate 0.
    const hsn = await csvOf("month=2025-10&section=hsn");
    expect(hsn.rows).toContain("07099990,Fresh Curry Leaves,NOS-NUMBERS,3,80.00,0,80.00,0.00,0.00,0.00,0.00");
  });

  it("is the owner's alone, and names a bad month or section", async () => {
    expect((await download("month=2026-01&section=b2cs", null)).response.status).toBe(401);
    expect((await download("month=2026-01&section=b2cs", staff)).response.status).toBe(403);
    expect((await download("month=2026-01&section=b2cs", customer)).response.status).toBe(403);
    for (const [query, field] of [
      ["month=2026-13&section=b2cs", "month"],
      ["month=26-01&section=b2cs", "month"],
      ["month=2017-06&section=b2cs", "month"],
      ["section=b2cs", "month"],
      ["month=2026-01&section=b2b", "section"],
      ["month=2026-01&section=b2cs&gstin=1", "gstin"],
    ] as const) {
      const { status, body } = await callApi(shop.app, "GET", `/api/admin/tax/gstr1.csv?${query}`, {
        as: owner,
      });
      expect(status, query).toBe(400);
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toMatch(new RegExp(`^${field}: `));
    }
  });
});
