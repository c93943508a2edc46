import { type FormEvent, useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import { type AdminCodRules, COD_PLACE_KINDS, type CodPlaceKind } from "../../common/cod-rules.ts";
import { INDIAN_STATE_NAMES } from "../../common/india.ts";
import { formatRupees, rupeesToPaise } from "../../common/money.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Input, Options, Select } from "../components/field.tsx";
import { ResultMessage, type ResultMessageState } from "../components/result-message.tsx";
import {
  NotSavedYet,
  type SectionSaveProps,
  UnsavedSections,
  useSectionSave,
} from "../components/unsaved-sections.tsx";
import { CodTabs } from "../features/cod/cod-tabs.tsx";
import { PrepaidIncentiveForm } from "../features/cod/prepaid-incentive-form.tsx";
import { api, isApiError, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminUser(request);
  return { rules: await api<AdminCodRules>("/admin/cod-rules"), isOwner: user.role === "owner" };
}

export const handle: RouteHandle = { meta: privatePage("Admin: cash-on-delivery rules") };

const KIND_LABELS: Record<CodPlaceKind, string> = { pin: "PIN code", district: "District", state: "State" };
const VALUE_LABELS: Record<CodPlaceKind, string> = {
  pin: "PIN code, or its first digits",
  district: "District name",
  state: "State or union territory",
};

const problemOf = (caught: unknown) =>
  isApiError(caught) ? caught.message : "Could not save. Check your connection and try again.";

/** The owner's cash-on-delivery rules (docs/decisions/062): checkout applies them at once, with its reason. */
export function Component() {
  const { rules, isOwner } = useLoaderData<typeof loader>();
  const [message, setMessage] = useState<ResultMessageState | null>(null);
  const revalidator = useRevalidator();
  const done = (text: string) => {
    setMessage({ kind: "ok", text });
    revalidator.revalidate();
  };
  const failed = (caught: unknown) => setMessage({ kind: "error", text: problemOf(caught) });
  return (
    <UnsavedSections>
      <CodTabs />
      <h1 className="font-serif text-3xl font-semibold">Cash-on-delivery rules</h1>
      <p className="mt-2 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Checkout offers cash on delivery only where these allow it, and tells the shopper why when it does
        not. Caps compare the order's total with shipping. The strictest rule that applies wins.
        {!isOwner && " Only the owner can change them."}
      </p>
      <ResultMessage message={message} />
      <SettingsForm rules={rules} isOwner={isOwner} onDone={done} onFailed={failed} />
      <PrepaidIncentiveForm
        incentive={rules.prepaidIncentive}
        isOwner={isOwner}
        onDone={done}
        onFailed={failed}
      />
      <section aria-labelledby="places-heading" className={`${cardClass} mt-4`}>
        <h2 id="places-heading" className="font-serif text-xl font-semibold">
          Places
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Cash on delivery off, or capped, for a PIN code or its first digits, a district or a state. Among
          PIN rules the longest prefix decides: “79” off with “795001” capped lets 795001 pay in cash up to
          its cap. Which PIN codes are delivered to at all is set on the{" "}
          <Link to="/admin/delivery" className="underline">
            Delivery
          </Link>{" "}
          page.
        </p>
        {isOwner && <PlaceForm onDone={done} onFailed={failed} />}
        <ul className="mt-3 divide-y divide-stone-200 dark:divide-stone-700" aria-label="Place rules">
          {rules.places.map((place) => (
            <PlaceRow
              key={`${place.kind}:${place.value}`}
              place={place}
              isOwner={isOwner}
              onDone={done}
              onFailed={failed}
            />
          ))}
          {rules.places.length === 0 && (
            <li className="py-2 text-sm text-stone-600 dark:text-stone-400">None.</li>
          )}
        </ul>
      </section>
    </UnsavedSections>
  );
}

/** One place's rule, and for the owner its Remove button. */
function PlaceRow({
  place,
  isOwner,
  onDone,
  onFailed,
}: {
  place: AdminCodRules["places"][number];
  isOwner: boolean;
  onDone: (text: string) => void;
  onFailed: (caught: unknown) => void;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <div>
        <p className="font-medium">
          {KIND_LABELS[place.kind]}: {place.value}
        </p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {place.maxPaise === null
            ? "No cash on delivery"
            : `Cash on delivery up to ${formatRupees(place.maxPaise)}`}
          {place.note && ` · ${place.note}`}
        </p>
      </div>
      {isOwner && (
        <Button
          variant="secondary"
          aria-label={`Remove the rule for ${place.value}`}
          onClick={async () => {
            try {
              await api(`/admin/cod-rules/places${toQuery({ kind: place.kind, value: place.value })}`, {
                method: "DELETE",
              });
              onDone(`Rule for ${place.value} removed.`);
            } catch (caught) {
              onFailed(caught);
            }
          }}
        >
          Remove
        </Button>
      )}
    </li>
  );
}

/** The caps in rupees and the count of returned parcels after which only online payment is offered. */
function LimitFields({ settings }: { settings: AdminCodRules["settings"] }) {
  return (
    <>
      <Field label="Largest order paid in cash (₹)">
        <Input
          name="maxOrder"
          type="number"
          min="0"
          step="1"
          required
          defaultValue={settings.maxOrderPaise / 100}
        />
      </Field>
      <Field label="Largest first order paid in cash (₹, empty for no separate limit)">
        <Input
          name="firstOrder"
          type="number"
          min="0"
          step="1"
          defaultValue={settings.firstOrderMaxPaise === null ? "" : settings.firstOrderMaxPaise / 100}
        />
      </Field>
      <Field
        label="Pay online only after this many parcels returned to origin (by account, mobile or address; empty for never)"
        className="sm:col-span-2"
      >
        <Input
          name="afterRtos"
          type="number"
          min="1"
          max="100"
          step="1"
          defaultValue={settings.prepaidOnlyAfterRtos ?? ""}
        />
      </Field>
    </>
  );
}

/** The place itself: a state chosen from the list, or a PIN (prefix) or district typed. */
function PlaceValueField({ kind }: { kind: CodPlaceKind }) {
  return kind === "state" ? (
    <Field label={VALUE_LABELS[kind]}>
      <Select name="value" required>
        <Options values={INDIAN_STATE_NAMES} />
      </Select>
    </Field>
  ) : (
    <Field label={VALUE_LABELS[kind]}>
      <Input
        name="value"
        required
        maxLength={kind === "pin" ? 6 : 80}
        inputMode={kind === "pin" ? "numeric" : "text"}
      />
    </Field>
  );
}

function SettingsForm({
  rules,
  isOwner,
  onDone,
  onFailed,
}: {
  rules: AdminCodRules;
  isOwner: boolean;
} & SectionSaveProps) {
  const { section, saving, save } = useSectionSave("For every order", { onDone, onFailed });
  const { settings } = rules;
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const optional = (name: string) => {
      const value = String(data.get(name) ?? "").trim();
      return value === "" ? null : Number(value);
    };
    const firstOrder = optional("firstOrder");
    await save(async () => {
      await api("/admin/cod-rules/settings", {
        method: "PUT",
        body: {
          enabled: data.get("enabled") === "on",
          maxOrderPaise: rupeesToPaise(Number(data.get("maxOrder"))),
          firstOrderMaxPaise: firstOrder === null ? null : rupeesToPaise(firstOrder),
          prepaidOnlyAfterRtos: optional("afterRtos"),
        },
      });
      return "Cash-on-delivery settings saved; checkout follows them now.";
    });
  }
  return (
    <form
      onSubmit={submit}
      onChange={section.touch}
      className={`${cardClass} mt-4`}
      aria-labelledby="settings-heading"
    >
      <h2 id="settings-heading" className="font-serif text-xl font-semibold">
        For every order
      </h2>
      <fieldset disabled={!isOwner || saving} className="mt-2 grid gap-3 sm:grid-cols-2">
        <label className="flex items-center gap-2 text-sm font-medium sm:col-span-2">
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} className="h-5 w-5" />
          Offer cash on delivery
        </label>
        <LimitFields settings={settings} />
        {isOwner && (
          <div className="sm:col-span-2">
            <Button type="submit">Save settings</Button> <NotSavedYet unsaved={section.unsaved} />
          </div>
        )}
      </fieldset>
      {settings.updatedAt === null && (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Not saved yet: these are the server's first values.
        </p>
      )}
    </form>
  );
}

function PlaceForm(props: SectionSaveProps) {
  const [kind, setKind] = useState<CodPlaceKind>("pin");
  const { section, saving, save } = useSectionSave("The new place rule", props);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const cap = String(data.get("cap") ?? "").trim();
    await save(async () => {
      await api("/admin/cod-rules/places", {
        method: "PUT",
        body: {
          kind,
          value: String(data.get("value") ?? "").trim(),
          maxPaise: cap === "" ? null : rupeesToPaise(Number(cap)),
          note: String(data.get("note") ?? "").trim(),
        },
      });
      form.reset();
      return `Rule for ${data.get("value")} saved; checkout follows it now.`;
    });
  }
  return (
    <form
      onSubmit={submit}
      onChange={section.touch}
      className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
      aria-label="Add a place rule"
    >
      <Field label="Kind">
        <Select value={kind} onChange={(event) => setKind(event.target.value as CodPlaceKind)}>
          <Options values={COD_PLACE_KINDS} labels={KIND_LABELS} />
        </Select>
      </Field>
      <PlaceValueField kind={kind} />
      <Field label="Cap (₹, empty for no cash)">
        <Input name="cap" type="number" min="0" step="1" />
      </Field>
      <Field label="Note">
        <Input name="note" maxLength={200} />
      </Field>
      <div className="sm:col-span-2 lg:col-span-4">
        <Button type="submit" disabled={saving}>
          Save rule
        </Button>
      </div>
    </form>
  );
}
