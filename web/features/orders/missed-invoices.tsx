import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { formatDate } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import { STATUS_LABELS } from "../../../common/order-lifecycle.ts";
import type { MissedInvoices, SellerInvoiceStatus } from "../../../common/schemas/missed-invoices.ts";
import { Button } from "../../components/button.tsx";
import { ResultMessage, type ResultMessageState } from "../../components/result-message.tsx";
import { api, isApiError } from "../../lib/api.ts";

type Outcome =
  | { order: string; issued: true; invoice: string }
  | { order: string; issued: false; reason: string };

const warningBox =
  "rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100";

const joinMissing = (missing: string[]) => missing.join(" and ");

/** What "Issue invoices" came to, in one sentence. */
function describeOutcomes(outcomes: Outcome[]): ResultMessageState {
  const issued = outcomes.filter((outcome) => outcome.issued);
  const refused = outcomes.filter((outcome) => !outcome.issued);
  if (issued.length === 0 && refused.length === 0)
    return { kind: "ok", text: "No order was waiting for an invoice." };
  const parts = [];
  if (issued.length === 1 && issued[0])
    parts.push(`Invoice ${issued[0].invoice} issued for ${issued[0].order}.`);
  else if (issued.length > 1) parts.push(`${issued.length} invoices issued, dated today.`);
  for (const outcome of refused) if (!outcome.issued) parts.push(`${outcome.order}: ${outcome.reason}`);
  return { kind: issued.length ? "ok" : "error", text: parts.join(" ") };
}

async function issueInvoices(body: { orders: string[] } | { all: true }): Promise<ResultMessageState> {
  try {
    const { outcomes } = await api<{ outcomes: Outcome[] }>("/admin/missed-invoices/issue", {
      method: "POST",
      body,
    });
    return describeOutcomes(outcomes);
  } catch (caught) {
    return { kind: "error", text: isApiError(caught) ? caught.message : "Something went wrong." };
  }
}

/** "No tax invoice can be issued: …": the owner is sent to Shop details, staff are told whom to ask. */
function SellerDetailsMissing({ seller, isOwner }: { seller: SellerInvoiceStatus; isOwner: boolean }) {
  return (
    <p>
      <strong>No tax invoice can be issued:</strong> the shop's {joinMissing(seller.missing)}{" "}
      {seller.missing.length > 1 ? "are" : "is"} not saved.{" "}
      {isOwner ? (
        <>
          Fill {seller.missing.length > 1 ? "them" : "it"} in at{" "}
          <Link to="/admin/shop" className="font-medium underline">
            Shop details
          </Link>
          ; the orders confirmed meanwhile can then be given their invoices here.
        </>
      ) : (
        "Ask the shop's owner to fill them in at Shop details."
      )}
    </p>
  );
}

/** The dashboard's word on invoices: details missing, or orders still without an invoice to issue. */
export function MissedInvoicesPanel({ missed, isOwner }: { missed: MissedInvoices; isOwner: boolean }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<ResultMessageState | null>(null);
  if (missed.canIssue && missed.total === 0 && !message) return null;

  async function issueAll() {
    setBusy(true);
    setMessage(await issueInvoices({ all: true }));
    setBusy(false);
    revalidator.revalidate();
  }

  return (
    <section aria-labelledby="missed-invoices-heading" className={warningBox}>
      <h2 id="missed-invoices-heading" className="mb-2 font-serif text-lg font-semibold">
        Tax invoices
      </h2>
      {!missed.canIssue && <SellerDetailsMissing seller={missed} isOwner={isOwner} />}
      {missed.total > 0 && (
        <>
          <p className={missed.canIssue ? "" : "mt-2"}>
            {missed.total === 1 ? "1 confirmed order has" : `${missed.total} confirmed orders have`} no tax
            invoice.
            {missed.canIssue &&
              isOwner &&
              " Issued now, each is dated today and names the day its goods were supplied."}
            {missed.canIssue && !isOwner && " The shop's owner can issue them."}
          </p>
          <ul className="mt-2 divide-y divide-amber-200 dark:divide-amber-800">
            {missed.orders.slice(0, 5).map((order) => (
              <li key={order.number} className="flex flex-wrap justify-between gap-x-3 py-1">
                <Link to={`/admin/orders/${order.number}`} className="font-medium underline">
                  {order.number}
                </Link>
                <span>
                  {order.shipName}, {formatRupees(order.totalPaise)},{" "}
                  {STATUS_LABELS[order.status].toLowerCase()}, confirmed {formatDate(order.confirmedAt)}
                </span>
              </li>
            ))}
          </ul>
          {missed.total > 5 && <p className="mt-1">and {missed.total - 5} more.</p>}
        </>
      )}
      {missed.canIssue && isOwner && missed.total > 0 && (
        <Button type="button" className="mt-3" disabled={busy} onClick={issueAll}>
          {busy
            ? "Issuing…"
            : missed.total === 1
              ? "Issue the invoice"
              : `Issue ${Math.min(missed.total, missed.orders.length)} invoices`}
        </Button>
      )}
      <ResultMessage message={message} />
    </section>
  );
}

/**
 * On an order page without an invoice: why, and for the owner the button that issues it. What the button
 * came to is said by the page (`onDone`), since the notice goes once the invoice exists.
 */
export function OrderInvoiceNotice({
  number,
  seller,
  isOwner,
  onDone,
}: {
  number: string;
  seller: SellerInvoiceStatus;
  isOwner: boolean;
  onDone: (message: ResultMessageState) => void;
}) {
  const [busy, setBusy] = useState(false);

  async function issue() {
    setBusy(true);
    onDone(await issueInvoices({ orders: [number] }));
    setBusy(false);
  }

  return (
    <section aria-label="Tax invoice" className={`${warningBox} mt-4`}>
      {seller.canIssue ? (
        <>
          <p>
            <strong>This order has no tax invoice.</strong> It was confirmed while the shop's GSTIN or address
            was not saved.{" "}
            {isOwner
              ? "Issued now, it is dated today and names the day the goods were supplied."
              : "The shop's owner can issue it."}
          </p>
          {isOwner && (
            <Button type="button" variant="secondary" className="mt-3" disabled={busy} onClick={issue}>
              {busy ? "Issuing…" : "Issue invoice"}
            </Button>
          )}
        </>
      ) : (
        <SellerDetailsMissing seller={seller} isOwner={isOwner} />
      )}
    </section>
  );
}
