import type { ContactMessage, ContactResponse } from "../../../common/contact.ts";
import { api, isApiError } from "../../lib/api.ts";

// The spec's messages, word for word.
export const CONTACT_SUCCESS = "Thank you for reaching out! Your message has been sent successfully.";
export const CONTACT_FAILED = "Something went wrong. Please try again.";
export const CONTACT_NETWORK_ERROR = "Network error. Please try again.";

export type ContactResult = { ok: true } | { ok: false; message: string };

/** The first error the response names (errors[0].message), else the spec's general failure. */
function firstError(body: unknown): string {
  const errors = (body as Partial<Extract<ContactResponse, { ok: false }>> | undefined)?.errors;
  const message = Array.isArray(errors) ? errors[0]?.message : undefined;
  return typeof message === "string" && message.trim() !== "" ? message : CONTACT_FAILED;
}

export async function sendContactMessage(message: ContactMessage): Promise<ContactResult> {
  try {
    const response = await api<ContactResponse>("/contact", { method: "POST", body: message });
    return response.ok === true ? { ok: true } : { ok: false, message: firstError(response) };
  } catch (error) {
    if (isApiError(error) && error.code === "network_error")
      return { ok: false, message: CONTACT_NETWORK_ERROR };
    return { ok: false, message: firstError(isApiError(error) ? error.body : undefined) };
  }
}
