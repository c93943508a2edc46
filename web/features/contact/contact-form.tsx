import { type FormEvent, useId, useState } from "react";
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  CONTACT_NAME_MAX_LENGTH,
  CONTACT_TEXTS,
} from "../../../common/contact.ts";
import { Button } from "../../components/button.tsx";
import { sendContactMessage } from "./send-contact-message.ts";

type Status = "idle" | "submitting" | "success" | "error";

const fieldClass =
  "mt-1 block w-full rounded-xl border border-stone-300 bg-white px-4 py-2.5 text-base shadow-sm placeholder:text-stone-400 focus:border-brand-600 disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-500 dark:border-stone-700 dark:bg-stone-950 dark:disabled:bg-stone-800";
const labelClass = "block text-sm font-medium text-stone-800 dark:text-stone-200";

/** Name, e-mail and message, posted to POST /api/contact; used on the home page and on /contact. */
export function ContactForm() {
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState("");
  const id = useId();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setStatus("submitting");
    const result = await sendContactMessage({
      name: String(data.get("name") ?? ""),
      email: String(data.get("email") ?? ""),
      message: String(data.get("message") ?? ""),
      // The honeypot goes along only when something (a bot) filled it in.
      ...(data.get("company") ? { company: String(data.get("company")) } : {}),
    });
    if (result.ok) {
      form.reset();
      setStatus("success");
    } else {
      setError(result.message);
      setStatus("error");
    }
  };

  const sending = status === "submitting";
  return (
    <form onSubmit={onSubmit} aria-label="Contact us" aria-busy={sending} className="space-y-4">
      <fieldset disabled={sending} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-name`} className={labelClass}>
              Name
            </label>
            <input
              id={`${id}-name`}
              name="name"
              required
              maxLength={CONTACT_NAME_MAX_LENGTH}
              autoComplete="name"
              className={fieldClass}
            />
          </div>
          <div>
            <label htmlFor={`${id}-email`} className={labelClass}>
              E-mail
            </label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              required
              maxLength={254}
              autoComplete="email"
              className={fieldClass}
            />
          </div>
        </div>
        <div>
          <label htmlFor={`${id}-message`} className={labelClass}>
            Message
          </label>
          <textarea
            id={`${id}-message`}
            name="message"
            required
            rows={5}
            maxLength={CONTACT_MESSAGE_MAX_LENGTH}
            className={fieldClass}
          />
        </div>
        {/* Bots fill every field; people never see this one, and a filled one is quietly dropped. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={`${id}-company`}>Company</label>
          <input id={`${id}-company`} name="company" tabIndex={-1} autoComplete="off" />
        </div>
        <Button type="submit" variant="brand" size="lg">
          {sending && (
            <span
              aria-hidden="true"
              className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
            />
          )}
          {sending ? "Sending…" : "Send message"}
        </Button>
      </fieldset>
      <div aria-live="polite">
        {status === "success" && (
          <p className="rounded-xl bg-brand-50 px-4 py-3 text-brand-800 dark:bg-brand-900 dark:text-brand-100">
            {CONTACT_TEXTS.success}
          </p>
        )}
      </div>
      <div role="alert">
        {status === "error" && (
          <p className="rounded-xl bg-red-50 px-4 py-3 text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}
