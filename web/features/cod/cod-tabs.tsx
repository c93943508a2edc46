import { NavLink } from "react-router";
import { Field, Input } from "../../components/field.tsx";

const TABS = [
  { to: "/admin/cod", label: "Cash counted" },
  { to: "/admin/cod/rules", label: "Rules" },
  { to: "/admin/cod/returns", label: "Returns to origin" },
];

/** The cash-on-delivery pages, one place in the admin: cash counted, the owner's rules, parcels returned. */
export function CodTabs() {
  return (
    <nav
      aria-label="Cash on delivery"
      className="mb-4 flex flex-wrap gap-2 border-b border-stone-200 pb-2 dark:border-stone-700"
    >
      {TABS.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          end
          className={({ isActive }) =>
            `rounded-md px-3 py-1.5 text-sm font-medium ${
              isActive
                ? "bg-brand-700 text-white dark:bg-brand-600"
                : "text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"
            }`
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The period a COD page reports on, as the date fields of its GET form (the cash counted, the returns). */
export function PeriodFields({ period }: { period: { from: string; to: string } }) {
  return (
    <>
      <Field label="From">
        <Input type="date" name="from" defaultValue={period.from} />
      </Field>
      <Field label="To">
        <Input type="date" name="to" defaultValue={period.to} />
      </Field>
    </>
  );
}
