import { CONTACT_TEXTS, type ContactResult } from "../../../common/contact.ts";
import type { ContactMessageInput } from "../../../common/schemas/contact.ts";
import { api, isApiError } from "../../lib/api.ts";

export type SendResult = { ok: true } | { ok: false; message: string };

/** The first error the response names (errors[0].message), else the spec's general failure. */
function firstError(body: unknown): string {
  const errors = (body as Partial<Extract<ContactResult, { ok: false }>> | undefined)?.errors;
  const message = Array.isArray(errors) ? errors[0]?.message : undefined;
  return typeof message === "string" && message.trim() !== "" ? message : CONTACT_TEXTS.serverError;
}

export async function sendContactMessage(message: ContactMessageInput): Promise<SendResult> {
  try {
    const response = await api<ContactResult>("/contact", { method: "POST", body: message });
    return response.ok === true ? { ok: true } : { ok: false, message: firstError(response) };
  } catch (error) {
    if (isApiError(error) && error.code === "network_error")
      return { ok: false, message: CONTACT_TEXTS.networkError };
    return { ok: false, message: firstError(isApiError(error) ? error.body : undefined) };
  }
}
