import { type FormEvent, useState } from "react";
import { type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import type { StaffList, StaffMember, StaffRoleAnswer } from "../../common/schemas/staff.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Input, Select } from "../components/field.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  return api<StaffList>("/admin/staff");
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: staff") };

type Role = "owner" | "staff" | "customer";

const ROLE_LABEL: Record<StaffMember["role"], string> = { owner: "Owner", staff: "Staff" };

const ROLE_TONE: Record<StaffMember["role"], string> = {
  owner: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  staff: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
};

/** What happened after each change: the server's own sentence, or its refusal. */
type Outcome = { ok: boolean; text: string } | null;

/**
 * The owner's staff page: who can open the admin, giving an account a role by its e-mail, changing it and
 * taking it away. Owners may do everything; staff work on orders, stock, questions, reviews and messages.
 */
export function Component() {
  const { people, youId } = useLoaderData<typeof loader>();
  const { change, outcome, fieldError, busy } = useRoleChange();

  async function grant(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const done = await change(String(data.get("email") ?? "").trim(), data.get("role") as Role);
    if (done) form.reset();
  }

  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Staff</h1>
      <p className="mt-1 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Owners can do everything here. Staff work on orders, stock, questions, reviews and messages. The
        person must have an account in the shop first (signed up with that e-mail).
      </p>
      <OutcomeLine outcome={outcome} />
      <form
        onSubmit={grant}
        className={`${cardClass} mt-2 grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end`}
        noValidate
      >
        <h2 className="font-serif text-xl font-semibold sm:col-span-3">Give someone access</h2>
        <Field id="staff-email" label="E-mail of their account" error={fieldError}>
          <Input name="email" type="email" autoComplete="off" required />
        </Field>
        <Field id="staff-role" label="Role">
          <Select name="role" defaultValue="staff">
            <option value="staff">Staff</option>
            <option value="owner">Owner</option>
          </Select>
        </Field>
        <Button type="submit" disabled={busy}>
          Give access
        </Button>
      </form>

      <ul className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="People with admin access">
        {people.map((person) => (
          <PersonCard
            key={person.id}
            person={person}
            isYou={person.id === youId}
            busy={busy}
            onChange={(role) => change(person.email, role)}
          />
        ))}
      </ul>
    </div>
  );
}

/** Giving, changing or taking away a role: the server's sentence or refusal, and the field it refused. */
function useRoleChange() {
  const revalidator = useRevalidator();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function change(email: string, role: Role): Promise<boolean> {
    setBusy(true);
    setOutcome(null);
    setFieldError(null);
    try {
      const answer = await api<StaffRoleAnswer>("/admin/staff", { method: "PUT", body: { email, role } });
      setOutcome({ ok: true, text: answer.message });
      revalidator.revalidate();
      return true;
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      if (caught.fields?.email) setFieldError(caught.fields.email);
      setOutcome({ ok: false, text: caught.fields?.email ?? caught.message });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { change, outcome, fieldError, busy };
}

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  return (
    <p aria-live="polite" className="mt-3 min-h-6 text-sm">
      {outcome && (
        <span
          role={outcome.ok ? "status" : "alert"}
          className={outcome.ok ? "text-emerald-800 dark:text-emerald-300" : "text-red-700 dark:text-red-400"}
        >
          {outcome.text}
        </span>
      )}
    </p>
  );
}

function PersonCard({
  person,
  isYou,
  busy,
  onChange,
}: {
  person: StaffMember;
  isYou: boolean;
  busy: boolean;
  onChange: (role: Role) => Promise<boolean>;
}) {
  const [confirming, setConfirming] = useState(false);
  const other: StaffMember["role"] = person.role === "owner" ? "staff" : "owner";
  return (
    <li className={cardClass}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate font-medium">
            {person.name || person.email}
            {isYou && <span className="text-stone-500 dark:text-stone-400"> (you)</span>}
          </p>
          <p className="truncate text-sm text-stone-600 dark:text-stone-400">{person.email}</p>
        </div>
        <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${ROLE_TONE[person.role]}`}>
          {ROLE_LABEL[person.role]}
        </span>
      </div>
      {confirming ? (
        <div className="mt-3">
          <p className="text-sm">
            {isYou
              ? "Remove your own admin access? You will be signed out at once."
              : `Remove ${person.email}'s admin access? They are signed out at once.`}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              type="button"
              variant="danger"
              disabled={busy}
              onClick={async () => {
                await onChange("customer");
                setConfirming(false);
              }}
            >
              Remove access
            </Button>
            <Button type="button" variant="secondary" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </div>
        </div>
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button type="button" variant="secondary" disabled={busy} onClick={() => onChange(other)}>
            Make {other === "owner" ? "an owner" : "staff"}
            <span className="sr-only"> ({person.email})</span>
          </Button>
          <Button type="button" variant="secondary" disabled={busy} onClick={() => setConfirming(true)}>
            Remove access<span className="sr-only"> ({person.email})</span>
          </Button>
        </div>
      )}
    </li>
  );
}
