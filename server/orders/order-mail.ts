import { and, desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { trackingUrl } from "../../common/couriers.ts";
import { formatEstimate } from "../../common/delivery-estimate.ts";
import type { DocumentKind } from "../../common/gst.ts";
import { formatMobile } from "../../common/india.ts";
import { isMobileAccountEmail } from "../../common/mobile-account.ts";
import { formatRupees } from "../../common/money.ts";
import { type OrderMailKind, STATUS_LABELS } from "../../common/order-lifecycle.ts";
import { PREPAID_LINE_LABEL } from "../../common/prepaid-incentive.ts";
import { codConfirmLink, hoursToConfirm } from "../cod/confirm-link.ts";
import type { Tx } from "../db/client.ts";
import { moneyLedger, type OrderRow, orderLines, orders, users } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { renderTaxDocumentPdf } from "../invoices/invoice-pdf.ts";
import { documentFileName, findTaxDocument } from "../invoices/tax-documents.ts";
import { enqueueJob, type NewJob } from "../jobs/job-queue.ts";
import type { MailAttachment } from "../mail.ts";
import { type MailSignature, readMailSignature } from "../mail-templates.ts";
import { orderWithPayment, type PaidOrder, SOLD_OUT_BEFORE_PAYMENT } from "../money/ledger.ts";
import { withOwnersShopName } from "../settings/settings.data.ts";
import { guestOrderClaimLink, guestOrderLink } from "./guest-order-link.ts";
import { deliverOrderSms, enqueueGuestDeliverySms } from "./order-sms.ts";
import { enqueueWhatsApp } from "./order-whatsapp.ts";

/**
 * `link`: a guest asked "Find my order" for the link to the order's page again. `returned`: staff marked the
 * goods of a return as received back.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

type Block = { text: string; html: string };
const paragraph = (text: string): Block => ({
  text,
  html: `<p style="margin:0 0 14px">${escapeHtml(text)}</p>`,
});

export const ORDER_MAIL_JOB = "order-mail";

/** A paragraph with one link; the plain-text part spells the address out. */
const linkParagraph = (text: string, label: string, href: string): Block => ({
  text,
  html: `<p style="margin:0 0 14px"><a href="${escapeHtml(href)}" style="color:#166534">${escapeHtml(label)}</a></p>`,
});

/**
 * Queues an e-mail about an order to its customer, in the transaction of the change it tells about: a
 * rolled-back change sends nothing, a committed one always gets its mail (docs/decisions/029).
 */
export async function enqueueOrderMail(tx: Tx, orderId: string, kind: OrderMailKind) {
  await enqueueJob(tx, orderMailJob(orderId, kind));
  // The same news on WhatsApp to a shopper who asked for it at checkout; e-mail and SMS remain regardless.
  await enqueueWhatsApp(tx, orderId, kind);
  // A guest's parcel news by SMS too, where the owner chose to pay for it.
  await enqueueGuestDeliverySms(tx, orderId, kind);
}

/** The mail job enqueueOrderMail queues, for a caller that queues it with others in one statement. */
export const orderMailJob = (orderId: string, kind: OrderMailKind): NewJob => ({
  kind: ORDER_MAIL_JOB,
  payload: { orderId, kind },
});

/**
 * Queues the mail carrying a tax invoice issued late (docs/decisions/060), in the transaction that issues it:
 * keyed by the invoice's number, so the invoice is mailed once however many requests issue it.
 */
export async function enqueueInvoiceMail(tx: Tx, orderId: string, invoiceNumber: string) {
  const kind: OrderMailKind = "invoice";
  await enqueueJob(tx, {
    kind: ORDER_MAIL_JOB,
    payload: { orderId, kind },
    key: `${ORDER_MAIL_JOB}:invoice:${invoiceNumber}`,
  });
}

/**
 * Sends an e-mail about an order (shop-branded HTML with a plain-text part), as the job worker does with a
 * queued one; it reads the order as it is now. Throws when the mail server fails, so the job is retried.
 */
export async function deliverOrderMail(shopDeps: Deps, orderId: string, kind: OrderMailKind) {
  // Composed with the owner's shop name as it stands now (server/settings).
  const deps = { ...shopDeps, env: await withOwnersShopName(shopDeps.db, shopDeps.env) };
  const [order] = await deps.db
    .select({ order: orderWithPayment, email: users.email, phoneNumber: users.phoneNumber })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  // A guest order goes to the address it was placed with; an order whose account was deleted has no one left
  // to write to.
  const to = order?.email ?? order?.order.guestEmail;
  if (!order || !to) return;
  const lines = await deps.db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(orderLines.position);
  // An order in an account is seen there; a guest's (not yet claimed by an account) through its signed link.
  const link = order.email
    ? `${deps.env.PUBLIC_URL}/orders/${order.order.number}`
    : guestOrderLink(deps.env, order.order);
  // An account made with a mobile number has no address to mail: its notices go by SMS instead.
  if (order.email && isMobileAccountEmail(order.email)) {
    if (order.phoneNumber) await deliverOrderSms(deps, order.order, order.phoneNumber, kind, link);
    return;
  }
  const documentKind = ATTACHED_DOCUMENT[kind];
  const [document, signature] = await Promise.all([
    documentKind ? documentAttachment(deps, orderId, documentKind) : null,
    readMailSignature(deps.db, deps.env),
  ]);
  // The one place the link that adds a guest order to an account is given: the order's own mailbox, whose
  // owner alone may say it belongs with the account that has this address (docs/decisions/050).
  const claim =
    !order.email && CLAIM_OFFERED.has(kind)
      ? claimParagraph(to, guestOrderClaimLink(deps.env, order.order))
      : null;
  const confirm = kind === "placed" ? confirmParagraphs(deps, order.order) : [];
  const returned = kind === "payment_returned" ? await lastReturnedPayment(deps, orderId) : null;
  const mail = composeOrderMail(
    deps,
    order.order,
    lines,
    kind,
    link,
    document,
    signature,
    claim,
    confirm,
    returned,
  );
  await deps.mailer.send({ to, ...mail, ...(document ? { attachments: [document.attachment] } : {}) });
}

const CLAIM_OFFERED = new Set<OrderMailKind>(["placed", "link"]);

/** The amount of the latest payment refunded because it could not be applied (server/payments/take-payment.ts). */
/** The last payment refunded whole because it could not be applied: its amount, and whether it came too late for the stock. */
async function lastReturnedPayment(deps: Deps, orderId: string) {
  const capture = alias(moneyLedger, "capture");
  const [refund] = await deps.db
    .select({ amountPaise: moneyLedger.amountPaise, why: capture.note })
    .from(moneyLedger)
    .leftJoin(
      capture,
      and(eq(capture.razorpayPaymentId, moneyLedger.razorpayPaymentId), eq(capture.kind, "online_payment")),
    )
    .where(
      and(
        eq(moneyLedger.orderId, orderId),
        eq(moneyLedger.kind, "online_refund"),
        eq(moneyLedger.applied, false),
      ),
    )
    .orderBy(desc(moneyLedger.id))
    .limit(1);
  return { amountPaise: refund?.amountPaise ?? 0, soldOut: refund?.why === SOLD_OUT_BEFORE_PAYMENT };
}

/**
 * A cash-on-delivery order still waiting for its shopper's confirmation asks for it in its "placed" mail
 * (docs/decisions/065): the one-tap link, and what happens without it.
 */
function confirmParagraphs(deps: Deps, order: typeof orders.$inferSelect): Block[] {
  if (order.status !== "placed" || !order.codConfirmBy) return [];
  const href = codConfirmLink(deps.env, deps.authSecret, order);
  return [
    paragraph(
      `Please confirm your order before we pack it: if it is not confirmed within ${hoursToConfirm(order)} hours, it is cancelled. You can also cancel it from the same page.`,
    ),
    linkParagraph(`Confirm your order: ${href}`, "Confirm my order", href),
  ];
}

const claimParagraph = (email: string, href: string) =>
  linkParagraph(
    `Have an account with ${email}? Add this order to it: ${href}`,
    "Add this order to my account",
    href,
  );

/**
 * The tax document each mail carries: the invoice goes with the goods, the credit note that reverses it
 * with the news of their cancellation or return (docs/decisions/038).
 */
const ATTACHED_DOCUMENT: Partial<Record<OrderMailKind, DocumentKind>> = {
  shipped: "invoice",
  invoice: "invoice",
  cancelled: "credit_note",
  returned: "credit_note",
};

type AttachedDocument = { number: string; invoiceNumber: string | null; attachment: MailAttachment };

/**
 * A tax document as a PDF, drawn when the job runs (a job's payload stays a few ids, and a retried job draws
 * it again); null when the order has none (a shop not yet registered for GST, or an order cancelled before
 * it was confirmed and so never invoiced).
 */
async function documentAttachment(
  deps: Deps,
  orderId: string,
  kind: DocumentKind,
): Promise<AttachedDocument | null> {
  const view = await findTaxDocument(deps.db, orderId, kind);
  if (!view) return null;
  const attachment: MailAttachment = {
    filename: documentFileName(view.document.number),
    content: await renderTaxDocumentPdf(view),
    contentType: "application/pdf",
  };
  return { number: view.document.number, invoiceNumber: view.invoice?.number ?? null, attachment };
}

const creditNoteParagraph = (document: AttachedDocument) =>
  paragraph(
    document.invoiceNumber
      ? `Your credit note ${document.number}, which reverses tax invoice ${document.invoiceNumber}, is attached as a PDF.`
      : `Your credit note ${document.number} is attached as a PDF.`,
  );

/** What the mail of each kind says above the order's summary. */
type MailWords = { subject: string; heading: string; body: Block[] };
type MailFacts = {
  order: PaidOrder;
  total: string;
  paidOnline: boolean;
  confirm: Block[];
  document: AttachedDocument | null;
  link: string;
  returned: { amountPaise: number; soldOut: boolean } | null;
};

const ORDER_MAIL_WORDS: Record<OrderMailKind, (facts: MailFacts) => MailWords> = {
  placed: ({ order, total, paidOnline, confirm }) => {
    const subject = `Order ${order.number} placed`;
    const heading = "Thank you for your order";
    const body: Block[] = [];
    body.push(
      paragraph(
        paidOnline
          ? `We have received your payment of ${total} and your order ${order.number} is confirmed.`
          : `Your order ${order.number} is placed. Please keep ${total} ready to pay on delivery.`,
      ),
      ...confirm,
      paragraph(
        `We hand orders to the courier within 3-5 days. Estimated delivery: ${formatEstimate({
          from: order.estimatedDeliveryFrom,
          to: order.estimatedDeliveryTo,
        })}.`,
      ),
    );
    return { subject, heading, body };
  },
  shipped: ({ order, document }) => {
    const subject = `Order ${order.number} has shipped`;
    const heading = "Your order is on its way";
    const body: Block[] = [];
    body.push(
      paragraph(`We have handed your order ${order.number} to ${order.courier ?? "the courier"}.`),
      paragraph(`Tracking number: ${order.trackingNumber ?? "to follow"}`),
    );
    {
      const tracking = trackingUrl(order.courier, order.trackingNumber, order.trackingUrl);
      body.push(
        tracking
          ? linkParagraph(`Track your parcel: ${tracking}`, "Track your parcel", tracking)
          : paragraph("You can follow the parcel on the courier's website with this number."),
      );
    }
    if (document) body.push(paragraph(`Your tax invoice ${document.number} is attached as a PDF.`));
    return { subject, heading, body };
  },
  invoice: ({ order, document }) => {
    const subject = `Tax invoice for order ${order.number}`;
    const heading = "Your tax invoice";
    const body: Block[] = [];
    body.push(
      paragraph(
        document
          ? `Your tax invoice ${document.number} for order ${order.number} is attached as a PDF.`
          : `The tax invoice for order ${order.number} is on your order's page.`,
      ),
      paragraph(
        "It is dated the day it was issued; the date of supply on it is when your order was confirmed.",
      ),
    );
    return { subject, heading, body };
  },
  out_for_delivery: ({ order, total }) => {
    const subject = `Order ${order.number} is out for delivery`;
    const heading = "Your order arrives today";
    const body: Block[] = [];
    body.push(
      paragraph(
        `${order.courier ?? "The courier"} is bringing your order ${order.number} today.${order.paymentMethod === "cod" ? ` Please keep ${total} ready to pay on delivery.` : ""}`,
      ),
    );
    return { subject, heading, body };
  },
  undelivered: ({ order, link }) => {
    // docs/decisions/052: the shopper may ask for another attempt or correct the address on the order's page.
    const subject = `Order ${order.number}: the courier could not deliver`;
    const heading = "We missed you";
    const body: Block[] = [];
    body.push(
      paragraph(
        `${order.courier ?? "The courier"} could not deliver your order ${order.number}. Tell us a day that suits you, or correct the address, and the courier will try again.`,
      ),
      linkParagraph(
        `Choose a day or correct the address: ${link}`,
        "Choose a day or correct the address",
        link,
      ),
      paragraph("If we hear nothing within two days, the parcel may be returned to us."),
    );
    return { subject, heading, body };
  },
  delivered: ({ order }) => {
    const subject = `Order ${order.number} delivered`;
    const heading = "Your order was delivered";
    const body: Block[] = [];
    body.push(
      paragraph(`Your order ${order.number} was delivered. We hope you enjoy it.`),
      paragraph(
        "If anything arrived damaged, defective or not as shown, request a return from your order page within 6 days of delivery.",
      ),
    );
    return { subject, heading, body };
  },
  cancelled: ({ order, total, paidOnline, document }) => {
    const subject = `Order ${order.number} cancelled`;
    const heading = "Your order is cancelled";
    const body: Block[] = [];
    body.push(
      paragraph(`Your order ${order.number} is cancelled.`),
      paragraph(
        paidOnline
          ? `The ${total} you paid will be refunded to your original payment method; approved refunds are processed within 6-8 days.`
          : "Nothing was charged for this order.",
      ),
    );
    if (document) body.push(creditNoteParagraph(document));
    return { subject, heading, body };
  },
  returned: ({ order, total, document }) => {
    const subject = `Return received for order ${order.number}`;
    const heading = "We have received your return";
    const body: Block[] = [];
    body.push(
      paragraph(`We have received the goods you sent back from your order ${order.number}.`),
      paragraph(
        order.paymentMethod === "razorpay"
          ? `The ${total} you paid will be refunded to your original payment method; approved refunds are processed within 6-8 days.`
          : `We will refund ${total} by UPI or bank transfer; approved refunds are processed within 6-8 days.`,
      ),
    );
    if (document) body.push(creditNoteParagraph(document));
    return { subject, heading, body };
  },
  refunded: ({ order, total }) => {
    const subject = `Refund for order ${order.number}`;
    const heading = "Your refund is processed";
    const body: Block[] = [];
    body.push(
      paragraph(
        order.paymentMethod === "razorpay"
          ? `We have refunded ${total} to your original payment method. Your bank may take a few working days to show it.`
          : `We have refunded ${total} by UPI or bank transfer.`,
      ),
    );
    if (order.refundReference) body.push(paragraph(`Refund reference: ${order.refundReference}`));
    return { subject, heading, body };
  },
  payment_returned: ({ order, total, returned }) => {
    const subject = `Order ${order.number}: your payment is refunded`;
    const heading = "We have refunded your payment";
    const body: Block[] = [];
    body.push(
      paragraph(
        returned?.soldOut
          ? `Your payment of ${formatRupees(returned.amountPaise)} arrived after the last units of what order ${order.number} asked for had been sold, so the order has been cancelled. We are sorry. We have refunded all of it to your original payment method; your bank may take a few working days to show it.`
          : `Your payment of ${formatRupees(returned?.amountPaise ?? 0)} arrived after order ${order.number} had changed, so it could not be applied as it was made. We have refunded all of it to your original payment method; your bank may take a few working days to show it.`,
      ),
      paragraph(
        order.paymentMethod === "cod" && order.status !== "cancelled"
          ? `Your order stands as cash on delivery: please keep ${total} ready to pay on delivery.`
          : `Your order is ${STATUS_LABELS[order.status].toLowerCase()}; see it on its page.`,
      ),
    );
    return { subject, heading, body };
  },
  link: ({ order, link }) => {
    const subject = `Your order ${order.number}`;
    const heading = "Here is your order";
    const body: Block[] = [];
    body.push(
      paragraph(
        `You asked for the link to your order ${order.number}. It opens the order's page, where you can follow its delivery; no sign-in is needed, so keep this e-mail to yourself.`,
      ),
      linkParagraph(`Open your order: ${link}`, "Open your order", link),
    );
    return { subject, heading, body };
  },
};

function composeOrderMail(
  deps: Deps,
  order: PaidOrder,
  lines: (typeof orderLines.$inferSelect)[],
  kind: OrderMailKind,
  link: string,
  document: AttachedDocument | null,
  signature: MailSignature,
  claim: Block | null,
  confirm: Block[],
  returned: { amountPaise: number; soldOut: boolean } | null,
) {
  const { SHOP_NAME } = deps.env;
  const { phone, email, legalName } = signature;
  const seller = legalName ? ` (sold by ${legalName})` : "";
  const total = formatRupees(order.totalPaise);
  const paidOnline = Boolean(order.paidAt);

  const { subject, heading, body } = ORDER_MAIL_WORDS[kind]({
    order,
    total,
    paidOnline,
    confirm,
    document,
    link,
    returned,
  });
  if (claim) body.push(claim);

  const itemsText = lines.map(
    (line) => `  ${line.quantity} × ${line.name}  ${formatRupees(line.lineTotalPaise)}`,
  );
  const totalsText = [
    `  Subtotal  ${formatRupees(order.subtotalPaise)}`,
    ...(order.discountCode
      ? [`  Discount (${order.discountCode})  -${formatRupees(order.discountPaise)}`]
      : []),
    ...(order.prepaidDiscountPaise > 0
      ? [`  ${PREPAID_LINE_LABEL}  -${formatRupees(order.prepaidDiscountPaise)}`]
      : []),
    `  Shipping  ${shippingWords(order)}`,
    `  Total (incl. GST)  ${total}`,
  ];
  const address = [
    order.shipName,
    order.shipLine1,
    order.shipLine2,
    `${order.shipCity}, ${order.shipState} ${order.shipPin}`,
    `Mobile ${formatMobile(order.shipPhone)}`,
  ].filter(Boolean);

  const text = [
    heading,
    "",
    ...body.map((block) => block.text),
    "",
    `Order ${order.number}`,
    ...itemsText,
    ...totalsText,
    "",
    "Delivering to:",
    ...address.map((line) => `  ${line}`),
    "",
    `See your order: ${link}`,
    "",
    `${SHOP_NAME}${seller} · ${phone} · ${email}`,
  ].join("\n");

  const html = orderMailHtml(order, lines, { subject, heading, body }, address, link, {
    shop: SHOP_NAME,
    seller,
    phone,
    email,
  });
  return { subject, text, html };
}

/** The mail as HTML: the words, the order's lines and totals, where it goes, and the shop's footer. */
function orderMailHtml(
  order: PaidOrder,
  lines: (typeof orderLines.$inferSelect)[],
  { subject, heading, body }: MailWords,
  address: string[],
  link: string,
  { shop, seller, phone, email }: { shop: string; seller: string; phone: string; email: string },
) {
  const total = formatRupees(order.totalPaise);
  const cell = "padding:6px 0;border-bottom:1px solid #e7e5e4";
  const itemsHtml = lines
    .map(
      (line) =>
        `<tr><td style="${cell}">${line.quantity} × ${escapeHtml(line.name)}</td><td style="${cell};text-align:right">${formatRupees(line.lineTotalPaise)}</td></tr>`,
    )
    .join("");
  const totalRow = (label: string, value: string, strong = false) =>
    `<tr><td style="padding:4px 0${strong ? ";font-weight:bold" : ""}">${escapeHtml(label)}</td><td style="padding:4px 0;text-align:right${strong ? ";font-weight:bold" : ""}">${escapeHtml(value)}</td></tr>`;
  return `<!doctype html>
<html lang="en-IN"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#fafaf9;font-family:Segoe UI,Roboto,Arial,sans-serif;color:#1c1917">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:#14532d;color:#ffffff;padding:18px 24px;font-family:Georgia,serif;font-size:22px">${escapeHtml(shop)}</td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 16px;font-family:Georgia,serif;font-size:22px;color:#14532d">${escapeHtml(heading)}</h1>
${body.map((block) => block.html).join("\n")}
<h2 style="margin:20px 0 8px;font-size:16px">Order ${escapeHtml(order.number)}</h2>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font-size:14px">${itemsHtml}
${totalRow("Subtotal", formatRupees(order.subtotalPaise))}
${order.discountCode ? totalRow(`Discount (${order.discountCode})`, `-${formatRupees(order.discountPaise)}`) : ""}
${order.prepaidDiscountPaise > 0 ? totalRow(PREPAID_LINE_LABEL, `-${formatRupees(order.prepaidDiscountPaise)}`) : ""}
${totalRow("Shipping", shippingWords(order))}
${totalRow("Total (incl. GST)", total, true)}
</table>
<h2 style="margin:20px 0 8px;font-size:16px">Delivering to</h2>
<p style="margin:0 0 20px;font-size:14px;line-height:1.5">${address.map(escapeHtml).join("<br>")}</p>
<p style="margin:0 0 8px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#15803d;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px">See your order</a></p>
</td></tr>
<tr><td style="padding:16px 24px;background:#f5f5f4;font-size:12px;color:#57534e">${escapeHtml(`${shop}${seller}`)} · ${escapeHtml(phone)} · <a href="mailto:${escapeHtml(email)}" style="color:#166534">${escapeHtml(email)}</a></td></tr>
</table></td></tr></table>
</body></html>`;
}

/** "Free", "Free for paying online" when the prepaid incentive waived the fee, or the fee. */
const shippingWords = (order: Pick<OrderRow, "shippingPaise" | "prepaidShippingWaivedPaise">) =>
  order.shippingPaise
    ? formatRupees(order.shippingPaise)
    : order.prepaidShippingWaivedPaise > 0
      ? "Free for paying online"
      : "Free";
