import { type FormEvent, useId, useState } from "react";
import { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_TEXTS, type ContactResult } from "../../../common/contact.ts";
import { buttonClass, errorTextClass, inputClass, labelClass } from "../../components/form-styles.ts";
import { api, isApiError } from "../../lib/api.ts";

type Status = "idle" | "submitting" | "success" | "error";

/**
 * The spec's contact form: name, e-mail and message, all required; fields disabled while sending; the
 * spec's success, server-error and network-error texts. `company` is a honeypot that people never see.
 */
export function ContactMessageForm() {
  const id = useId();
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState("");

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setStatus("submitting");
    try {
      await api<ContactResult>("/contact", {
        method: "POST",
        body: {
          name: String(data.get("name") ?? ""),
          email: String(data.get("email") ?? ""),
          message: String(data.get("message") ?? ""),
          company: String(data.get("company") ?? ""),
        },
      });
      form.reset();
      setStatus("success");
    } catch (caught) {
      // api() reads the server's first error message, or gives the spec's network and fallback texts.
      setError(isApiError(caught) ? caught.message : CONTACT_TEXTS.serverError);
      setStatus("error");
    }
  }

  const sending = status === "submitting";
  return (
    <form onSubmit={submit} className="max-w-xl space-y-4">
      <div>
        <label htmlFor={`${id}-name`} className={labelClass}>
          Name
        </label>
        <input
          id={`${id}-name`}
          name="name"
          required
          autoComplete="name"
          disabled={sending}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor={`${id}-email`} className={labelClass}>
          Email
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          required
          autoComplete="email"
          disabled={sending}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor={`${id}-message`} className={labelClass}>
          Message
        </label>
        <textarea
          id={`${id}-message`}
          name="message"
          rows={5}
          required
          maxLength={CONTACT_MESSAGE_MAX_LENGTH}
          disabled={sending}
          className={inputClass}
        />
      </div>
      {/* Bots fill every field; people never see this one. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={`${id}-company`}>Company</label>
        <input id={`${id}-company`} name="company" tabIndex={-1} autoComplete="off" />
      </div>
      <button type="submit" disabled={sending} className={buttonClass.primary}>
        {sending ? "Sending…" : "Send message"}
      </button>
      <div role="status" aria-live="polite">
        {status === "success" && (
          <p className="text-brand-800 dark:text-brand-100">{CONTACT_TEXTS.success}</p>
        )}
      </div>
      {status === "error" && (
        <p role="alert" className={errorTextClass}>
          {error}
        </p>
      )}
    </form>
  );
}
