import type { FormEvent, ReactNode } from "react";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";

/**
 * The card an admin list opens to create or edit one of its rows (a combo, a discount code): named by its
 * title, the server's refusal under it, the fields in two columns, then save (`submitLabel`) and Cancel.
 */
export function EditorForm({
  title,
  message,
  onSubmit,
  submitLabel,
  saving,
  busy = saving,
  onCancel,
  children,
}: {
  title: string;
  message: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  saving: boolean;
  /** Also true while something else is out (a picture uploading): the form cannot be saved meanwhile. */
  busy?: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={onSubmit}
      className={`${cardClass} mt-4 grid gap-4 sm:grid-cols-2`}
      aria-label={title}
      noValidate
    >
      <h2 className="font-serif text-xl font-semibold sm:col-span-2">{title}</h2>
      {message && (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2 dark:text-red-400">
          {message}
        </p>
      )}
      {children}
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" disabled={busy}>
          {saving ? "Saving…" : submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
