import { CONTACT_TEXTS, type ContactResult } from "../../../common/contact.ts";
import type { ContactMessageInput } from "../../../common/schemas/contact.ts";
import { api, isApiError } from "../../lib/api.ts";

export type SendResult = { ok: true } | { ok: false; message: string };

/** The spec's texts: the first error the server names (its error.message), else the general failure. */
export async function sendContactMessage(message: ContactMessageInput): Promise<SendResult> {
  try {
    await api<ContactResult>("/contact", { method: "POST", body: message });
    return { ok: true };
  } catch (error) {
    if (!isApiError(error)) return { ok: false, message: CONTACT_TEXTS.serverError };
    if (error.code === "network_error") return { ok: false, message: CONTACT_TEXTS.networkError };
    return { ok: false, message: error.message.trim() || CONTACT_TEXTS.serverError };
  }
}
