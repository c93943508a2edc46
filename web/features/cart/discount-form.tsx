import { type FormEvent, useId, useState } from "react";
import type { AppliedDiscount } from "../../../common/cart.ts";
import { formatRupees } from "../../../common/money.ts";

type Feedback = { tone: "success" | "error"; text: string };

export function DiscountForm({
  discount,
  notice,
  onApply,
  onRemove,
}: {
  discount: AppliedDiscount | null;
  /** A refusal that came from signing in, not from this form. */
  notice: string | null;
  onApply: (code: string) => Promise<{ ok: boolean; message?: string }>;
  onRemove: () => Promise<unknown>;
}) {
  const inputId = useId();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const shown = feedback ?? (notice ? { tone: "error" as const, text: notice } : null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim() || busy) return;
    setBusy(true);
    const result = await onApply(code);
    setBusy(false);
    setFeedback({ tone: result.ok ? "success" : "error", text: result.message ?? "" });
    if (result.ok) setCode("");
  };

  return (
    <div className="border-b border-stone-200 pb-4 dark:border-stone-700">
      {discount ? (
        <div className="flex items-start justify-between gap-3">
          <p className="text-sm">
            Code <span className="font-semibold">{discount.code}</span>{" "}
            {discount.valid ? "applied" : "in your cart"}
            <span className="block text-stone-600 dark:text-stone-400">{discount.description}</span>
          </p>
          <button
            type="button"
            onClick={() => {
              setFeedback(null);
              void onRemove();
            }}
            className="min-h-11 shrink-0 rounded px-2 text-sm underline hover:text-red-700 dark:hover:text-red-400"
            aria-label={`Remove discount code ${discount.code}`}
          >
            Remove
          </button>
        </div>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-2" noValidate>
          <label htmlFor={inputId} className="text-sm font-medium">
            Discount code
          </label>
          <div className="flex gap-2">
            <input
              id={inputId}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              className="min-h-11 w-full min-w-0 rounded-lg border border-stone-300 bg-white px-3 uppercase placeholder:normal-case dark:border-stone-600 dark:bg-stone-900"
              placeholder="e.g. GLOW20"
            />
            <button
              type="submit"
              disabled={busy || !code.trim()}
              className="min-h-11 shrink-0 rounded-lg border border-brand-700 px-4 font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-50 dark:border-brand-100 dark:text-brand-100 dark:hover:bg-stone-800"
            >
              Apply
            </button>
          </div>
        </form>
      )}
      {shown &&
        (shown.tone === "success" ? (
          <p role="status" className="mt-2 text-sm font-medium text-brand-700 dark:text-brand-100">
            {shown.text}
          </p>
        ) : (
          <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
            {shown.text}
          </p>
        ))}
      {discount && !discount.valid && (
        <p className="mt-2 text-sm text-amber-800 dark:text-amber-300" data-testid="discount-problem">
          {discount.problem ?? "This code cannot be used now"}: {discount.code} takes nothing off. Remove it
          to place your order.
        </p>
      )}
      {discount?.valid && discount.shortfallPaise > 0 && (
        <p className="mt-2 text-sm text-amber-800 dark:text-amber-300" data-testid="discount-shortfall">
          Add {formatRupees(discount.shortfallPaise)} more to get{" "}
          {discount.amountOffPaise > 0 ? formatRupees(discount.amountOffPaise) : `${discount.percent}%`} off
          with {discount.code}.
        </p>
      )}
    </div>
  );
}
