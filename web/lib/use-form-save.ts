import { useState } from "react";
import type { ResultMessageState } from "../components/result-message.tsx";
import { isApiError } from "./api.ts";

/** A field's name -> the server's message for it (a 400's `fields`). */
export type FieldErrors = Record<string, string>;

export const NOTHING_SAVED = "Nothing was saved: please correct the fields marked below.";

/**
 * One admin form's save: the request, then what it came to in words; on a refusal the server's messages
 * beside their fields and one line saying nothing was saved. What was typed stays in the form either way.
 * `summaryField` names a field whose message says it all (a list's own rule), shown as that line instead.
 */
export function useFormSave() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<ResultMessageState | null>(null);
  const [saving, setSaving] = useState(false);

  async function save<T>(
    send: () => Promise<T>,
    said: (result: T) => string,
    summaryField?: string,
  ): Promise<T | undefined> {
    setSaving(true);
    setErrors({});
    setMessage(null);
    try {
      const result = await send();
      setMessage({ kind: "ok", text: said(result) });
      return result;
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      setErrors(caught.fields ?? {});
      const summary = summaryField ? caught.fields?.[summaryField] : undefined;
      setMessage({ kind: "error", text: summary ?? (caught.fields ? NOTHING_SAVED : caught.message) });
      return undefined;
    } finally {
      setSaving(false);
    }
  }

  return { errors, message, saving, save, setMessage, setErrors };
}
