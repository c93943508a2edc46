import { type FormEvent, useState } from "react";
import { type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import { HSN_PATTERN } from "../../common/gst.ts";
import { indianWallClock } from "../../common/india-time.ts";
import {
  GSTR1_SECTIONS,
  type Gstr1Section,
  type ProductTaxView,
  type TaxSettings,
} from "../../common/schemas/tax.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { controlClass, Field, FieldError, Input } from "../components/field.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  return api<TaxSettings>("/admin/tax");
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: tax") };

const percent = (rate: number) => `${rate} %`;
const problemOf = (caught: unknown) =>
  isApiError(caught) ? caught.message : "Something went wrong. Please try again.";

/**
 * The owner's GST page (docs/decisions/037 and 044): the month's GSTR-1 files for the accountant, the rates
 * allowed, and each product's HSN code and rate. Each change is saved on its own, so a refused one never
 * takes another's typing with it.
 */
export function Component() {
  const { rates, products } = useLoaderData<typeof loader>();
  const missing = products.filter((product) => !product.hsnCode).length;
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Tax</h1>
      <p className="mt-2 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Tax invoices and credit notes are worked out from these rates and HSN codes when an order is confirmed
        or cancelled. A change applies to documents issued from then on, never to ones already issued. Confirm
        the codes and rates with your accountant.
      </p>
      <Gstr1Export />
      <RatesCard rates={rates} />
      <section aria-labelledby="tax-products" className="mt-8">
        <h2 id="tax-products" className="font-serif text-xl font-semibold">
          Products
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          {missing === 0
            ? "Every product has an HSN code."
            : `${missing} product${missing === 1 ? " has" : "s have"} no HSN code yet: their invoice lines and the HSN summary show it blank.`}
        </p>
        {/* A row per product on a wide screen; on a phone each wraps into a small card, fields below the name. */}
        <ul
          aria-label="Products' HSN codes and rates"
          className="mt-3 divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white dark:divide-stone-700 dark:border-stone-700 dark:bg-stone-900"
        >
          {products.map((product) => (
            <ProductTaxRow key={product.slug} product={product} rates={rates} />
          ))}
        </ul>
      </section>
    </div>
  );
}

/** Last month in India time: the one a GSTR-1 is filed for (by the 11th). */
function lastMonthInIndia(now = new Date()): string {
  const india = indianWallClock(now);
  const year = india.getUTCFullYear();
  const month = india.getUTCMonth(); // 0-based, so this is last month's 1-based number
  return month === 0 ? `${year - 1}-12` : `${year}-${String(month).padStart(2, "0")}`;
}

const SECTION_LABELS: Record<Gstr1Section, { title: string; detail: string }> = {
  b2cs: { title: "B2C (small)", detail: "Table 7: by place of supply and rate" },
  b2cl: { title: "B2C (large)", detail: "Table 5: inter-state invoices over ₹1,00,000, one by one" },
  cdnur: { title: "B2C (large) credit notes", detail: "Table 9B: credit notes against those invoices" },
  exempt: { title: "Nil-rated supplies", detail: "Table 8: sales at 0 %, inter- and intra-state" },
  hsn: { title: "HSN summary", detail: "Table 12: by HSN, rate and unit" },
  docs: { title: "Documents issued", detail: "Table 13: each series' first and last number" },
  documents: { title: "Invoices and credit notes", detail: "Every document, to check against the others" },
};

function Gstr1Export() {
  const [month, setMonth] = useState(lastMonthInIndia);
  const valid = /^20\d\d-(0[1-9]|1[0-2])$/.test(month) && month >= "2017-07";
  return (
    <section aria-labelledby="gstr1" className={`${cardClass} mt-6`}>
      <h2 id="gstr1" className="font-serif text-xl font-semibold">
        GSTR-1 for your accountant
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        The month's invoices and credit notes (by India time) as CSV files with the column names of GSTN's
        offline tool. Credit notes are taken off the sales of the month they were issued in; those against B2C
        (large) invoices are listed on their own.
      </p>
      <div className="mt-3 max-w-xs">
        <Field id="gstr1-month" label="Month">
          <Input
            type="month"
            min="2017-07"
            value={month}
            onChange={(event) => setMonth(event.target.value)}
            aria-describedby={valid ? undefined : "gstr1-month-error"}
            aria-invalid={valid ? undefined : true}
          />
        </Field>
        <FieldError id="gstr1-month-error" error={valid ? null : "Choose a month from July 2017 on."} alert />
      </div>
      <ul aria-label="GSTR-1 files" className="mt-4 grid gap-2 sm:grid-cols-2">
        {GSTR1_SECTIONS.map((section) => (
          <li key={section}>
            {valid ? (
              <a
                href={`/api/admin/tax/gstr1.csv?month=${month}&section=${section}`}
                download
                className={`${buttonClass({ variant: "secondary" })} w-full flex-col items-start text-left`}
              >
                <span>
                  Download {SECTION_LABELS[section].title}
                  <span className="sr-only"> for {month}</span>
                </span>
                <span className="text-xs font-normal text-stone-600 dark:text-stone-400">
                  {SECTION_LABELS[section].detail}, CSV
                </span>
              </a>
            ) : (
              <span
                className={`${buttonClass({ variant: "secondary" })} w-full opacity-60`}
                aria-disabled="true"
              >
                {SECTION_LABELS[section].title}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A rate in percent with at most two decimals, as the API takes it; null with the reason otherwise. */
function parseRate(text: string): { rate: number } | { problem: string } {
  const trimmed = text.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(trimmed)) return { problem: "Enter a rate in percent, like 5 or 0.25." };
  const rate = Number(trimmed);
  if (rate > 100) return { problem: "A rate is at most 100 %." };
  return { rate };
}

function RatesCard({ rates }: { rates: number[] }) {
  const revalidator = useRevalidator();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const parsed = parseRate(value);
    if ("problem" in parsed) {
      setError(parsed.problem);
      return;
    }
    setBusy(true);
    try {
      await api("/admin/tax/rates", { method: "POST", body: { gstRate: parsed.rate } });
      setValue("");
      setNotice(`Added ${percent(parsed.rate)}.`);
      revalidator.revalidate();
    } catch (caught) {
      setError(isApiError(caught) && caught.fields?.gstRate ? caught.fields.gstRate : problemOf(caught));
    } finally {
      setBusy(false);
    }
  }

  async function remove(rate: number) {
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      await api(`/admin/tax/rates/${rate}`, { method: "DELETE" });
      setNotice(`Removed ${percent(rate)}.`);
      revalidator.revalidate();
    } catch (caught) {
      setNotice(problemOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="tax-rates" className={`${cardClass} mt-6`}>
      <h2 id="tax-rates" className="font-serif text-xl font-semibold">
        GST rates
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        The rates a product can be given. A rate some product is at cannot be removed, nor 18 %, the rate new
        products start at.
      </p>
      <ul aria-label="Allowed rates" className="mt-3 flex flex-wrap gap-2">
        {rates.map((rate) => (
          <li
            key={rate}
            className="inline-flex items-center gap-1 rounded-full border border-stone-300 py-1 pr-1 pl-3 dark:border-stone-600"
          >
            <span className="font-medium tabular-nums">{percent(rate)}</span>
            <button
              type="button"
              disabled={busy}
              onClick={() => remove(rate)}
              className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-full text-stone-600 hover:bg-stone-100 disabled:opacity-60 dark:text-stone-300 dark:hover:bg-stone-800"
            >
              <span aria-hidden="true">×</span>
              <span className="sr-only">Remove {percent(rate)}</span>
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} noValidate aria-label="Add a rate" className="mt-4 flex flex-wrap items-end gap-2">
        <div className="w-36">
          <Field id="new-rate" label="New rate (%)">
            <Input
              inputMode="decimal"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              aria-describedby={error ? "new-rate-error" : undefined}
              aria-invalid={error ? true : undefined}
            />
          </Field>
        </div>
        <Button type="submit" disabled={busy}>
          Add rate
        </Button>
      </form>
      {error && (
        <p id="new-rate-error" role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <p role="status" className="mt-2 text-sm empty:hidden">
        {notice}
      </p>
    </section>
  );
}

function ProductTaxRow({ product, rates }: { product: ProductTaxView; rates: number[] }) {
  const revalidator = useRevalidator();
  const [hsn, setHsn] = useState(product.hsnCode ?? "");
  const [rate, setRate] = useState(String(product.gstRate));
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const id = `tax-${product.slug}`;
  const changed = hsn !== (product.hsnCode ?? "") || rate !== String(product.gstRate);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const hsnCode = hsn.replace(/\s/g, "");
    if (!HSN_PATTERN.test(hsnCode)) {
      setMessage({ kind: "error", text: "An HSN code is 4, 6 or 8 digits." });
      return;
    }
    setSaving(true);
    setMessage(null);
    try {
      await api(`/admin/tax/products/${product.slug}`, {
        method: "PUT",
        body: { hsnCode, gstRate: Number(rate) },
      });
      setHsn(hsnCode);
      setMessage({ kind: "ok", text: `Saved: HSN ${hsnCode} at ${percent(Number(rate))}.` });
      revalidator.revalidate();
    } catch (caught) {
      setMessage({ kind: "error", text: problemOf(caught) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <li className="p-3">
      <form
        onSubmit={save}
        noValidate
        aria-label={`Tax of ${product.name}`}
        className="flex flex-wrap items-start gap-x-3 gap-y-2"
      >
        <div className="min-w-0 flex-1 basis-48">
          <p className="font-medium break-words">{product.name}</p>
          <p className="mt-0.5 flex flex-wrap gap-x-2 gap-y-1 text-xs text-stone-600 dark:text-stone-400">
            {!product.active && <span>hidden from the shop</span>}
            {!product.hsnCode && (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
                No HSN yet
              </span>
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div className="w-32">
            <label htmlFor={`${id}-hsn`} className="block text-xs font-medium">
              HSN
            </label>
            <input
              id={`${id}-hsn`}
              inputMode="numeric"
              maxLength={11}
              value={hsn}
              onChange={(event) => setHsn(event.target.value)}
              aria-describedby={message ? `${id}-message` : undefined}
              aria-invalid={message?.kind === "error" ? true : undefined}
              className={`${controlClass} font-mono`}
            />
          </div>
          <div className="w-24">
            <label htmlFor={`${id}-rate`} className="block text-xs font-medium">
              Rate
            </label>
            <select
              id={`${id}-rate`}
              value={rate}
              onChange={(event) => setRate(event.target.value)}
              className={controlClass}
            >
              {/* A rate removed since is still shown, so the select never silently shows another. */}
              {[...new Set([...rates, Number(rate)])]
                .sort((a, b) => a - b)
                .map((option) => (
                  <option key={option} value={String(option)}>
                    {percent(option)}
                  </option>
                ))}
            </select>
          </div>
          <Button type="submit" disabled={!changed || saving} variant="secondary">
            {saving ? "Saving…" : "Save"}
            <span className="sr-only"> the tax of {product.name}</span>
          </Button>
        </div>
      </form>
      {message && (
        <p
          id={`${id}-message`}
          role={message.kind === "error" ? "alert" : "status"}
          className={`mt-1 text-sm ${message.kind === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-800 dark:text-emerald-300"}`}
        >
          {message.text}
        </p>
      )}
    </li>
  );
}
