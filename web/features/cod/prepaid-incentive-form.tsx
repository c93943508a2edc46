import { type FormEvent, useState } from "react";
import { rupeesToPaise } from "../../../common/money.ts";
import { describePrepaidIncentive, type PrepaidIncentive } from "../../../common/prepaid-incentive.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, Input } from "../../components/field.tsx";
import { NotSavedYet, type SectionSaveProps, useSectionSave } from "../../components/unsaved-sections.tsx";
import { api } from "../../lib/api.ts";

type Kind = PrepaidIncentive["kind"];

const KIND_CHOICES: { kind: Kind; label: string }[] = [
  { kind: "none", label: "Nothing" },
  { kind: "percent", label: "A percentage off" },
  { kind: "flat", label: "An amount off" },
  { kind: "free_shipping", label: "Free shipping" },
];

/**
 * The owner's reward for paying online (docs/decisions/072): checkout shows it under "Pay online" and prices
 * it in the order; staff see it without the form's controls.
 */
export function PrepaidIncentiveForm({
  incentive,
  isOwner,
  onDone,
  onFailed,
}: {
  incentive: PrepaidIncentive;
  isOwner: boolean;
} & SectionSaveProps) {
  const [kind, setKind] = useState<Kind>(incentive.kind);
  const { section, saving, save } = useSectionSave("Reward for paying online", { onDone, onFailed });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const rupees = (name: string) => {
      const value = String(data.get(name) ?? "").trim();
      return value === "" ? null : rupeesToPaise(Number(value));
    };
    const body: PrepaidIncentive =
      kind === "percent"
        ? { kind, percent: Number(data.get("percent")), capPaise: rupees("cap") }
        : kind === "flat"
          ? { kind, amountPaise: rupees("amount") ?? 0 }
          : { kind };
    await save(async () => {
      const saved = await api<{ prepaidIncentive: PrepaidIncentive }>("/admin/cod-rules/prepaid-incentive", {
        method: "PUT",
        body,
      });
      return `Saved: ${describePrepaidIncentive(saved.prepaidIncentive)}. Checkout shows it now.`;
    });
  }
  return (
    <form
      onSubmit={submit}
      onChange={section.touch}
      className={`${cardClass} mt-4`}
      aria-labelledby="prepaid-heading"
    >
      <h2 id="prepaid-heading" className="font-serif text-xl font-semibold">
        Reward for paying online
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Shown at checkout under “Pay online” and taken off the order when it is paid online, after any
        discount code. Now: {describePrepaidIncentive(incentive)}.
      </p>
      <fieldset disabled={!isOwner || saving} className="mt-3 grid gap-3 sm:grid-cols-2">
        <legend className="sr-only">Reward for paying online</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2 sm:col-span-2" role="radiogroup" aria-label="Reward">
          {KIND_CHOICES.map((choice) => (
            <label key={choice.kind} className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input
                type="radio"
                name="kind"
                value={choice.kind}
                checked={kind === choice.kind}
                onChange={() => setKind(choice.kind)}
                className="h-5 w-5 accent-brand-700"
              />
              {choice.label}
            </label>
          ))}
        </div>
        {kind === "percent" && (
          <>
            <Field label="Percent off (1-50)">
              <Input
                name="percent"
                type="number"
                min="1"
                max="50"
                step="1"
                required
                defaultValue={incentive.kind === "percent" ? incentive.percent : 5}
              />
            </Field>
            <Field label="At most (₹, empty for no cap)">
              <Input
                name="cap"
                type="number"
                min="1"
                step="1"
                defaultValue={
                  incentive.kind === "percent" && incentive.capPaise !== null ? incentive.capPaise / 100 : ""
                }
              />
            </Field>
          </>
        )}
        {kind === "flat" && (
          <Field label="Amount off (₹)">
            <Input
              name="amount"
              type="number"
              min="1"
              step="1"
              required
              defaultValue={incentive.kind === "flat" ? incentive.amountPaise / 100 : 50}
            />
          </Field>
        )}
        {isOwner && (
          <div className="sm:col-span-2">
            <Button type="submit">Save reward</Button> <NotSavedYet unsaved={section.unsaved} />
          </div>
        )}
      </fieldset>
    </form>
  );
}
