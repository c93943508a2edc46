import { useActionData, useNavigation } from "react-router";
import { api, isApiError } from "./api.ts";
import { requireSessionUser } from "./session.ts";

export type AdminData<T> = { forbidden: true } | { forbidden: false; data: T };

/**
 * For the loaders of staff pages: a signed-out visitor goes to /login and back; a signed-in customer gets
 * { forbidden: true } to show a plain "no access" page. The API decides the role either way.
 */
export async function loadAdminData<T>(request: Request, path: string): Promise<AdminData<T>> {
  await requireSessionUser(request);
  try {
    return { forbidden: false, data: await api<T>(path) };
  } catch (error) {
    if (isApiError(error) && error.status === 403) return { forbidden: true };
    throw error;
  }
}

export type ActionResult =
  | { ok: true; id: string; intent: string; notice: string }
  | {
      ok: false;
      id: string;
      intent: string;
      error: string;
      fields?: Record<string, string>;
    };

/** Runs one admin action and reports its outcome to the card that sent it. */
export async function runAdminAction(
  id: string,
  intent: string,
  work: () => Promise<string>,
): Promise<ActionResult> {
  try {
    return { ok: true, id, intent, notice: await work() };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { ok: false, id, intent, error: error.message, fields: error.fields };
  }
}

/** The outcome of the last admin action sent from the card with this id, and whether one is on its way. */
export function useAdminAction(id: string) {
  const data = useActionData() as ActionResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("id") === id;
  return { busy, result: data?.id === id ? data : undefined };
}
