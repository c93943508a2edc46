import { type FormEvent, useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator, useSearchParams } from "react-router";
import { formatDateTime, fromIndianDateTimeInput, toIndianDateTimeInput } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import type { AdminDiscountCode, AdminDiscountCodePage } from "../../common/schemas/discount-codes.ts";
import { buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Input } from "../components/field.tsx";
import { EditorForm } from "../features/admin/editor-form.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api, isApiError, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const cursor = new URL(request.url).searchParams.get("cursor");
  return api<AdminDiscountCodePage>(`/admin/discount-codes${toQuery({ cursor, limit: 24 })}`);
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: discount codes") };

const when = formatDateTime;

/** A stored instant as the India wall-clock time a datetime-local input shows. */
const toIndiaInput = (iso: string | null) => (iso ? toIndianDateTimeInput(new Date(iso)) : "");

/** What the owner typed is India time, whatever the device's own zone. */
const fromIndiaInput = (value: string) => (value ? fromIndianDateTimeInput(value) : null);

function status(code: AdminDiscountCode, now = Date.now()) {
  if (!code.active)
    return { label: "Off", tone: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100" };
  if (code.startsAt && now < Date.parse(code.startsAt))
    return { label: "Scheduled", tone: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100" };
  if (code.endsAt && now >= Date.parse(code.endsAt))
    return { label: "Expired", tone: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100" };
  if (code.maxUses !== null && code.timesUsed >= code.maxUses)
    return { label: "Used up", tone: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100" };
  return {
    label: "Live",
    tone: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  };
}

const offer = (code: AdminDiscountCode) =>
  code.amountOffPaise > 0 ? `${formatRupees(code.amountOffPaise)} off` : `${code.percent}% off`;

export function Component() {
  const { items, nextCursor } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const editing = params.get("edit");
  const creating = params.get("new") === "1";
  const current = editing ? items.find((item) => item.code === editing) : undefined;
  const close = () => setParams(params.get("cursor") ? { cursor: params.get("cursor") ?? "" } : {});
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-serif text-3xl font-semibold">Discount codes</h1>
        {!creating && (
          <Link to="?new=1" className={buttonClass()}>
            New code
          </Link>
        )}
      </div>
      {(creating || current) && (
        <CodeEditor key={current?.code ?? "new"} code={current ?? null} onDone={close} />
      )}
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Discount codes">
        {items.map((code) => {
          const badge = status(code);
          return (
            <li key={code.code} className={cardClass}>
              <div className="flex items-start justify-between gap-2">
                <p className="font-mono text-lg font-semibold tracking-wide">{code.code}</p>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${badge.tone}`}>
                  {badge.label}
                </span>
              </div>
              <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">{code.description}</p>
              <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
                <dt className="text-stone-500 dark:text-stone-400">Offer</dt>
                <dd>{offer(code)}</dd>
                <dt className="text-stone-500 dark:text-stone-400">Minimum order</dt>
                <dd>{code.minAmountPaise > 0 ? formatRupees(code.minAmountPaise) : "None"}</dd>
                <dt className="text-stone-500 dark:text-stone-400">Used</dt>
                <dd>
                  {code.timesUsed}
                  {code.maxUses === null ? " (no limit)" : ` of ${code.maxUses}`}
                </dd>
                <dt className="text-stone-500 dark:text-stone-400">Per customer</dt>
                <dd>{perCustomer(code.usesPerCustomer)}</dd>
                <dt className="text-stone-500 dark:text-stone-400">From</dt>
                <dd>{code.startsAt ? when(code.startsAt) : "Any time"}</dd>
                <dt className="text-stone-500 dark:text-stone-400">Until</dt>
                <dd>{code.endsAt ? when(code.endsAt) : "No end"}</dd>
              </dl>
              <Link
                to={`?edit=${code.code}`}
                className={`${buttonClass({ variant: "secondary" })} mt-3 w-full`}
              >
                Edit<span className="sr-only"> {code.code}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      {items.length === 0 && <p className="mt-4 text-stone-600 dark:text-stone-400">No codes yet.</p>}
      <div className="mt-4 flex gap-3">
        {params.get("cursor") && (
          <Link to="." className={buttonClass({ variant: "secondary" })}>
            Newest
          </Link>
        )}
        {nextCursor && (
          <Link to={`?cursor=${nextCursor}`} className={buttonClass({ variant: "secondary" })}>
            Older codes
          </Link>
        )}
      </div>
    </div>
  );
}

const perCustomer = (uses: number | null) =>
  uses === null ? "No limit" : uses === 1 ? "Once" : `${uses} times`;

function CodeEditor({ code, onDone }: { code: AdminDiscountCode | null; onDone: () => void }) {
  const revalidator = useRevalidator();
  const [kind, setKind] = useState<"percent" | "amount">(
    code && code.amountOffPaise > 0 ? "amount" : "percent",
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const rupeesToPaise = (name: string) => Math.round(Number(text(name) || "0") * 100);
    const body: Record<string, unknown> = {
      description: text("description"),
      ...(kind === "percent"
        ? { percent: Number(text("percent")) }
        : { amountOffPaise: rupeesToPaise("amount") }),
      minAmountPaise: rupeesToPaise("minimum"),
      startsAt: fromIndiaInput(text("startsAt")),
      endsAt: fromIndiaInput(text("endsAt")),
      maxUses: text("maxUses") ? Number(text("maxUses")) : null,
      usesPerCustomer: text("usesPerCustomer") ? Number(text("usesPerCustomer")) : null,
      active: form.get("active") === "on",
    };
    if (!code) body.code = text("code");
    setSaving(true);
    setErrors({});
    setMessage(null);
    try {
      await api(code ? `/admin/discount-codes/${code.code}` : "/admin/discount-codes", {
        method: code ? "PATCH" : "POST",
        body,
      });
      revalidator.revalidate();
      onDone();
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      setErrors(caught.fields ?? {});
      setMessage(caught.fields ? "Please correct the fields marked below." : caught.message);
    } finally {
      setSaving(false);
    }
  }

  const field = (name: string, label: string, input: React.ReactNode, hint?: string) => (
    <Field
      id={`code-${name}`}
      label={label}
      hint={errors[name] ? undefined : hint}
      error={errors[name]}
      alert
    >
      {input}
    </Field>
  );

  return (
    <EditorForm
      title={code ? `Edit ${code.code}` : "New code"}
      message={message}
      onSubmit={submit}
      submitLabel={code ? "Save changes" : "Create code"}
      saving={saving}
      onCancel={onDone}
    >
      {!code &&
        field(
          "code",
          "Code",
          <Input name="code" required className="font-mono uppercase" />,
          "3 to 20 letters or digits; shoppers may type it in any case.",
        )}
      {field(
        "description",
        "Description",
        <Input name="description" defaultValue={code?.description} />,
        "Shown as “… applied successfully!”",
      )}
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-medium">Discount</legend>
        <div className="mt-1 flex gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="kind"
              checked={kind === "percent"}
              onChange={() => setKind("percent")}
            />{" "}
            Percent off
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="kind" checked={kind === "amount"} onChange={() => setKind("amount")} />{" "}
            Amount off (₹)
          </label>
        </div>
      </fieldset>
      {kind === "percent"
        ? field(
            "percent",
            "Percent (1-90)",
            <Input
              name="percent"
              type="number"
              min={1}
              max={90}
              step={1}
              inputMode="numeric"
              defaultValue={code?.percent || ""}
            />,
          )
        : field(
            "amountOffPaise",
            "Amount off (₹, whole rupees)",
            <Input
              name="amount"
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              defaultValue={code?.amountOffPaise ? code.amountOffPaise / 100 : ""}
            />,
          )}
      {field(
        "minAmountPaise",
        "Minimum order (₹)",
        <Input
          name="minimum"
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          defaultValue={code ? code.minAmountPaise / 100 : 0}
        />,
      )}
      {field(
        "startsAt",
        "Starts (India time)",
        <Input name="startsAt" type="datetime-local" defaultValue={toIndiaInput(code?.startsAt ?? null)} />,
        "Leave empty to start at once.",
      )}
      {field(
        "endsAt",
        "Ends (India time)",
        <Input name="endsAt" type="datetime-local" defaultValue={toIndiaInput(code?.endsAt ?? null)} />,
        "Leave empty for no end.",
      )}
      {field(
        "maxUses",
        "Total uses",
        <Input
          name="maxUses"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          defaultValue={code?.maxUses ?? ""}
        />,
        code ? `Used ${code.timesUsed} so far. Leave empty for no limit.` : "Leave empty for no limit.",
      )}
      {field(
        "usesPerCustomer",
        "Uses per customer",
        <Input
          name="usesPerCustomer"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          defaultValue={code ? (code.usesPerCustomer ?? "") : 1}
        />,
        "Counted per account, and per e-mail and mobile for guests. Leave empty for no limit.",
      )}
      <label className="flex items-center gap-2 text-sm font-medium sm:col-span-2">
        <input type="checkbox" name="active" defaultChecked={code ? code.active : true} /> On (shoppers can
        use it)
      </label>
    </EditorForm>
  );
}
