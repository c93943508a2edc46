import { useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/field.tsx";
import { Notice } from "../../components/notice.tsx";

/**
 * Deleting asks twice: a button, then a dialog that names what goes and asks for the password (an account
 * without one must have signed in recently, which Better Auth checks). The native dialog keeps focus inside
 * and closes on Escape.
 */
export function DeleteAccount({
  hasPassword,
  contact = "e-mail address",
}: {
  hasPassword: boolean;
  /** What the account is known by: an e-mail address, or the mobile number it was made with. */
  contact?: "e-mail address" | "mobile number";
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<{ intent: string; ok: boolean; message: string }>();
  const busy = fetcher.state !== "idle";
  const failure = fetcher.data && !fetcher.data.ok ? fetcher.data.message : null;

  return (
    <div className="space-y-4">
      <p className="text-stone-700 dark:text-stone-300">
        This removes your name, {contact}, sign-in methods, sessions and saved cart. Orders you have placed
        stay in the shop's records for accounting, without your name or {contact}.
      </p>
      <Button variant="danger-outline" onClick={() => dialog.current?.showModal()}>
        Delete my account…
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby="delete-title"
        aria-describedby="delete-description"
        className="m-auto w-[min(32rem,calc(100%-2rem))] rounded-2xl border border-stone-200 bg-white p-0 text-stone-900 backdrop:bg-stone-950/60 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
      >
        <fetcher.Form method="post" className="space-y-4 p-6">
          <input type="hidden" name="intent" value="delete" />
          <h2 id="delete-title" className="font-serif text-xl font-semibold">
            Delete your account?
          </h2>
          <p id="delete-description" className="text-stone-700 dark:text-stone-300">
            This cannot be undone. You will be signed out everywhere and your personal data will be removed.
          </p>
          {hasPassword ? (
            <TextField
              label="Your password, to confirm"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={128}
            />
          ) : (
            <p className="text-sm text-stone-600 dark:text-stone-400">
              For your safety this works only within a day of signing in. If it is refused, sign out and sign
              in again.
            </p>
          )}
          {failure && <Notice tone="error">{failure}</Notice>}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              Keep my account
            </Button>
            <Button type="submit" variant="danger" pending={busy} pendingLabel="Deleting…">
              Delete my account
            </Button>
          </div>
        </fetcher.Form>
      </dialog>
    </div>
  );
}
