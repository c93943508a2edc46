import { type FormEvent, useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator, useSearchParams } from "react-router";
import {
  DELIVERY_RULE_KINDS,
  DELIVERY_RULE_LABELS,
  type DeliveryRuleKind,
} from "../../common/delivery-check.ts";
import type { AdminDeliveryRule, AdminDeliveryRulePage } from "../../common/schemas/delivery.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Input, Options, Select } from "../components/field.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api, isApiError, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const after = new URL(request.url).searchParams.get("after");
  return api<AdminDeliveryRulePage>(`/admin/delivery-rules${toQuery({ after, limit: 50 })}`);
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: delivery") };

const TONES: Record<DeliveryRuleKind, string> = {
  not_served: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100",
  served: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
};

/** The owner's PIN rules for delivery: PIN codes or ranges not served. Cash by PIN is a COD rule. */
export function Component() {
  const { items, next } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Delivery</h1>
      <p className="mt-2 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Mark a PIN code, or the first digits of a range of them, as not served. Checkout, orders and “Check
        delivery” on product pages follow these at once. When rules overlap, the one with the longest prefix
        decides: “79” not served with “795001” served as usual serves only 795001 in that range.
      </p>
      <p className="mt-2 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Cash on delivery off or capped for a PIN code, a district or a state is set in the{" "}
        <Link to="/admin/cod/rules" className="font-medium underline">
          cash-on-delivery rules
        </Link>
        .
      </p>
      <RuleForm />
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Delivery rules">
        {items.map((rule) => (
          <RuleCard key={rule.prefix} rule={rule} />
        ))}
      </ul>
      {items.length === 0 && (
        <p className="mt-4 text-stone-600 dark:text-stone-400">
          No rules: every PIN code in India Post's directory is served.
        </p>
      )}
      <div className="mt-4 flex gap-3">
        {params.get("after") && (
          <Link to="." className={buttonClass({ variant: "secondary" })}>
            First rules
          </Link>
        )}
        {next && (
          <Link to={`?after=${next}`} className={buttonClass({ variant: "secondary" })}>
            More rules
          </Link>
        )}
      </div>
    </div>
  );
}

function RuleForm() {
  const revalidator = useRevalidator();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const prefix = String(data.get("prefix") ?? "").trim();
    setErrors({});
    setMessage(null);
    if (!/^[1-9][0-9]{0,5}$/.test(prefix)) {
      setErrors({ prefix: "must be a PIN code or its first 1-5 digits" });
      return;
    }
    setSaving(true);
    try {
      await api(`/admin/delivery-rules/${prefix}`, {
        method: "PUT",
        body: { rule: String(data.get("rule")), note: String(data.get("note") ?? "") },
      });
      form.reset();
      setMessage(`Saved the rule for ${prefix}.`);
      revalidator.revalidate();
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      setErrors(caught.fields ?? {});
      if (!caught.fields) setMessage(caught.message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Add or change a rule"
      className={`${cardClass} mt-4 grid gap-3 sm:grid-cols-[10rem_14rem_1fr_auto] sm:items-end`}
    >
      <Field id="rule-prefix" label="PIN or prefix" error={errors.prefix} alert>
        <Input name="prefix" inputMode="numeric" maxLength={6} required className="font-mono" />
      </Field>
      <Field id="rule-rule" label="Rule" error={errors.rule} alert>
        <Select name="rule">
          <Options values={DELIVERY_RULE_KINDS} labels={DELIVERY_RULE_LABELS} />
        </Select>
      </Field>
      <Field id="rule-note" label="Note (optional)" error={errors.note} alert>
        <Input name="note" maxLength={200} />
      </Field>
      <Button type="submit" disabled={saving}>
        {saving ? "Saving…" : "Save rule"}
      </Button>
      {message && (
        <p role="status" className="text-sm sm:col-span-4">
          {message}
        </p>
      )}
    </form>
  );
}

function RuleCard({ rule }: { rule: AdminDeliveryRule }) {
  const revalidator = useRevalidator();
  const [problem, setProblem] = useState<string | null>(null);
  async function remove() {
    setProblem(null);
    try {
      await api(`/admin/delivery-rules/${rule.prefix}`, { method: "DELETE" });
      revalidator.revalidate();
    } catch (caught) {
      setProblem(isApiError(caught) ? caught.message : "Something went wrong. Please try again.");
    }
  }
  return (
    <li className={cardClass}>
      <div className="flex items-start justify-between gap-2">
        <p className="font-mono text-lg font-semibold tracking-wide">
          {rule.prefix}
          {rule.prefix.length < 6 && <span className="text-stone-500 dark:text-stone-400">…</span>}
        </p>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${TONES[rule.rule]}`}>
          {DELIVERY_RULE_LABELS[rule.rule]}
        </span>
      </div>
      <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
        {rule.prefix.length === 6 ? "This PIN code" : `PIN codes starting ${rule.prefix}`}
        {rule.note ? `: ${rule.note}` : ""}
      </p>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <Button onClick={remove} variant="secondary" className="mt-3 w-full">
        Remove<span className="sr-only"> the rule for {rule.prefix}</span>
      </Button>
    </li>
  );
}
