import { type FormEvent, useState } from "react";
import type { CartReminderSettings } from "../../../common/cart-reminders.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, Input } from "../../components/field.tsx";
import { ResultMessage } from "../../components/result-message.tsx";
import { api } from "../../lib/api.ts";
import { useFormSave } from "../../lib/use-form-save.ts";

type Draft = {
  enabled: boolean;
  delay: string;
  secondReminder: boolean;
  codePercent: string;
  codeDays: string;
};

const draftOf = (settings: CartReminderSettings): Draft => ({
  enabled: settings.enabled,
  delay: String(settings.delayMinutes),
  secondReminder: settings.secondReminder,
  codePercent: String(settings.codePercent),
  codeDays: String(settings.codeDays),
});

/** A number as typed, or the text itself so the server names what is wrong with it. */
const typedNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text);

function said(settings: CartReminderSettings): string {
  if (!settings.enabled) return "Saved. Cart reminders are off: no shopper gets one from now on.";
  const delay =
    settings.delayMinutes % 60 === 0
      ? `${settings.delayMinutes / 60} hour${settings.delayMinutes === 60 ? "" : "s"}`
      : `${settings.delayMinutes} minutes`;
  const code = settings.codePercent
    ? `, with a ${settings.codePercent}% code valid ${settings.codeDays} day${settings.codeDays === 1 ? "" : "s"}`
    : ", without a code";
  const second = settings.secondReminder ? " A second reminder follows a day later." : "";
  return `Saved. Shoppers who opted in get a reminder ${delay} after leaving their cart${code}.${second}`;
}

function Check({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm sm:col-span-2">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-5 shrink-0 accent-brand-700"
      />
      <span>
        <span className="block font-medium">{label}</span>
        <span className="text-stone-600 dark:text-stone-400">{hint}</span>
      </span>
    </label>
  );
}

/**
 * The owner's cart reminder settings (docs/decisions/089): on or off, how long a cart rests first, a second
 * reminder a day later, and the shopper's own code. Only shoppers who opted in are ever reminded.
 */
export function CartReminderSettingsForm({ settings }: { settings: CartReminderSettings }) {
  const [draft, setDraft] = useState(() => draftOf(settings));
  const { errors, message, saving, save } = useFormSave();
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      enabled: draft.enabled,
      delayMinutes: typedNumber(draft.delay),
      secondReminder: draft.secondReminder,
      codePercent: typedNumber(draft.codePercent),
      codeDays: typedNumber(draft.codeDays),
    };
    const saved = await save(
      () => api<CartReminderSettings>("/admin/cart-reminders/settings", { method: "PUT", body }),
      said,
    );
    if (saved) setDraft(draftOf(saved));
  }

  return (
    <section aria-labelledby="cart-reminders-heading" className={`${cardClass} mt-8`}>
      <h2 id="cart-reminders-heading" className="font-serif text-xl font-semibold">
        Cart reminders
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        An e-mail to a shopper who left a cart (signed in, or a guest who typed an e-mail at checkout) and did
        not order, with a link that brings the cart back. Only shoppers who ticked “remind me” get one; every
        reminder has a one-tap unsubscribe.
      </p>
      <form
        onSubmit={submit}
        aria-label="Cart reminders"
        className="mt-4 grid gap-4 sm:grid-cols-2"
        noValidate
      >
        <Check
          label="Send cart reminders"
          hint="Off: no reminders go; carts left behind are still counted on the dashboard."
          checked={draft.enabled}
          onChange={(enabled) => change({ enabled })}
        />
        <Field
          id="reminders-delayMinutes"
          label="Remind after (minutes)"
          hint="How long the cart rests untouched first: 15 minutes to 3 days. 60 is an hour."
          error={errors.delayMinutes}
          alert
        >
          <Input
            inputMode="numeric"
            value={draft.delay}
            onChange={(event) => change({ delay: event.target.value })}
          />
        </Field>
        <Check
          label="Send a second reminder a day later"
          hint="Never more than two, and none to a shopper who ordered or unsubscribed meanwhile."
          checked={draft.secondReminder}
          onChange={(secondReminder) => change({ secondReminder })}
        />
        <Field
          id="reminders-codePercent"
          label="Code in the reminder (% off)"
          hint="0 sends no code. A code works once, for that shopper only."
          error={errors.codePercent}
          alert
        >
          <Input
            inputMode="numeric"
            value={draft.codePercent}
            onChange={(event) => change({ codePercent: event.target.value })}
          />
        </Field>
        <Field
          id="reminders-codeDays"
          label="Code valid for (days)"
          hint="1 to 30 days from the reminder."
          error={errors.codeDays}
          alert
        >
          <Input
            inputMode="numeric"
            value={draft.codeDays}
            onChange={(event) => change({ codeDays: event.target.value })}
          />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" pending={saving} pendingLabel="Saving…">
            Save cart reminders
          </Button>
          <ResultMessage message={message} />
        </div>
      </form>
    </section>
  );
}
