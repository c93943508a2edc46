import { Form, Link, type LoaderFunctionArgs, useLoaderData, useSearchParams } from "react-router";
import { formatDateTimeSeconds } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import {
  AUDIT_ENTITY_LABELS,
  AUDIT_ENTITY_TYPES,
  type AuditEntryView,
  type AuditPage,
} from "../../common/schemas/audit.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Options, Select } from "../components/field.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

const FILTERS = ["entityType", "actorId"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  const search = new URL(request.url).searchParams;
  const pick = (name: string) => search.get(name) || undefined;
  return api<AuditPage>(
    `/admin/audit${toQuery({
      entityType: pick("entityType"),
      actorId: pick("actorId"),
      after: pick("after"),
      before: pick("before"),
      limit: 30,
    })}`,
  );
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: audit log") };

const when = formatDateTimeSeconds;

/** Field names as a person reads them: trackingNumber becomes "tracking number", minAmountPaise "min amount". */
const FIELD_LABELS: Record<string, string> = {
  bytes: "uploaded file",
  small: "small copy",
  large: "large copy",
  imageAlts: "picture descriptions",
};

const fieldLabel = (key: string) =>
  FIELD_LABELS[key] ??
  key
    .replace(/Paise$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();

/**
 * Bookkeeping every edit changes (it says nothing the entry's own time does not), and the shop's internal
 * references (a row's id, a stored file's key), which mean nothing to the owner reading the log.
 */
const HIDDEN_FIELDS = new Set(["createdAt", "updatedAt", "version", "id", "key"]);

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const kilobytes = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} kB`;

/** A list as words: picture keys are counted, texts listed, blank ones counted ("2 without a description"). */
function showList(values: unknown[], key: string): string {
  if (values.length === 0) return "none";
  if (key === "images") return count(values.length, "picture");
  if (values.every((value) => typeof value === "string")) {
    const texts = values as string[];
    const written = texts.filter((text) => text.trim() !== "");
    const blank = texts.length - written.length;
    const blankLabel = key === "imageAlts" ? "without a description" : "blank";
    return [...written.map((text) => `“${text}”`), ...(blank ? [`${blank} ${blankLabel}`] : [])].join(", ");
  }
  return values.map((value) => show(value)).join("; ");
}

function show(value: unknown, key = ""): string {
  if (value === null || value === undefined || value === "") return "—";
  if (key.endsWith("Paise") && typeof value === "number") return formatRupees(value);
  if (["bytes", "small", "large"].includes(key) && typeof value === "number") return kilobytes(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return showList(value, key);
  // A nested object (a delivery address, a combo's items): its fields as "name: value", never raw JSON.
  return Object.entries(value as Record<string, unknown>)
    .filter(([field]) => !HIDDEN_FIELDS.has(field))
    .map(([field, inner]) => `${fieldLabel(field)}: ${show(inner, field)}`)
    .join(", ");
}

/** What the entry is about, as the owner knows it: an uploaded picture's storage key is no name. */
const subjectOf = (entry: AuditEntryView) =>
  entry.entityId.startsWith("uploads/") ? "A new picture" : entry.entityId;

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Only what changed, each field as before → after; a creation lists what it was created with. */
function changedFields(entry: AuditEntryView) {
  const before = asRecord(entry.before);
  const after = asRecord(entry.after);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((key) => !HIDDEN_FIELDS.has(key) && JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => ({
      key,
      before: key in before ? show(before[key], key) : null,
      after: key === "images" ? showPictures(before[key], after[key]) : show(after[key], key),
    }));
}

/** "3 pictures, 1 new, 1 removed": the keys themselves mean nothing to the owner, their changes do. */
function showPictures(before: unknown, after: unknown): string {
  const old = Array.isArray(before) ? before : [];
  const now = Array.isArray(after) ? after : [];
  const added = now.filter((key) => !old.includes(key)).length;
  const removed = old.filter((key) => !now.includes(key)).length;
  const moved = added === 0 && removed === 0 && old.length > 0 ? ["in a new order"] : [];
  return [
    showList(now, "images"),
    ...(added ? [`${added} new`] : []),
    ...(removed ? [`${removed} removed`] : []),
    ...moved,
  ].join(", ");
}

export function Component() {
  const { items, cursors, actors } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const kept = Object.fromEntries(FILTERS.map((name) => [name, search.get(name)]));
  const filtered = FILTERS.some((name) => search.get(name));
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title" className="font-serif text-3xl font-semibold">
        Audit log
      </h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Every change made in the admin: who, when, and what it was before and after. Times are India time.
      </p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <Field id="audit-entity" label="What changed" className="min-w-40 flex-1">
          <Select name="entityType" defaultValue={search.get("entityType") ?? ""}>
            <option value="">Everything</option>
            <Options values={AUDIT_ENTITY_TYPES} labels={AUDIT_ENTITY_LABELS} />
          </Select>
        </Field>
        <Field id="audit-actor" label="By" className="min-w-40 flex-1">
          <Select name="actorId" defaultValue={search.get("actorId") ?? ""}>
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.email}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit">Show</Button>
        {filtered && (
          <Link to="." className={buttonClass({ variant: "secondary" })}>
            Clear
          </Link>
        )}
      </Form>

      <ol className="mt-4 grid gap-3" aria-label="Changes, newest first">
        {items.map((entry) => {
          const fields = changedFields(entry);
          return (
            <li key={entry.id} className={cardClass}>
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                <p className="font-semibold">
                  {AUDIT_ENTITY_LABELS[entry.entityType] ?? entry.entityType}:{" "}
                  <span className="capitalize">{entry.action.replaceAll("_", " ")}</span>
                </p>
                <time dateTime={entry.at} className="text-sm text-stone-600 dark:text-stone-400">
                  {when(entry.at)}
                </time>
              </div>
              <p className="mt-1 text-sm [overflow-wrap:anywhere] text-stone-700 dark:text-stone-300">
                <span className={subjectOf(entry) === entry.entityId ? "font-mono" : undefined}>
                  {subjectOf(entry)}
                </span>{" "}
                by {entry.actorEmail}
              </p>
              {fields.length > 0 ? (
                <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
                  {fields.map((field) => (
                    // min-w-0 and overflow-wrap:anywhere: a long word (an address, a link) wraps inside the
                    // card instead of widening the page past a phone's screen.
                    <div
                      key={field.key}
                      className="min-w-0 rounded-md bg-stone-50 px-3 py-2 [overflow-wrap:anywhere] dark:bg-stone-800/60"
                    >
                      <dt className="font-medium text-stone-600 dark:text-stone-400">
                        {fieldLabel(field.key)}
                      </dt>
                      <dd className="mt-0.5 whitespace-pre-line">
                        {field.before !== null && (
                          <>
                            <del className="text-red-800 decoration-red-800/50 dark:text-red-300 dark:decoration-red-300/50">
                              {field.before}
                            </del>
                            <span aria-hidden="true" className="mx-1.5 text-stone-500">
                              →
                            </span>
                            <span className="sr-only"> changed to </span>
                          </>
                        )}
                        <ins className="text-green-800 no-underline dark:text-green-300">{field.after}</ins>
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : (
                <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">No field changed.</p>
              )}
            </li>
          );
        })}
      </ol>
      {items.length === 0 && (
        <p className="mt-4 text-stone-600 dark:text-stone-400">
          {filtered ? "No changes match these filters." : "No changes recorded yet."}
        </p>
      )}
      <nav aria-label="Pages" className="mt-4 flex gap-3">
        {cursors.previous && (
          <Link
            to={toQuery({ ...kept, before: cursors.previous })}
            className={buttonClass({ variant: "secondary" })}
          >
            Newer
          </Link>
        )}
        {cursors.next && (
          <Link
            to={toQuery({ ...kept, after: cursors.next })}
            className={buttonClass({ variant: "secondary" })}
          >
            Older
          </Link>
        )}
      </nav>
    </section>
  );
}
