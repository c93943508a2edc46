import { useId } from "react";
import { Form } from "react-router";
import { CONTACT_MESSAGE_MAX_LENGTH, type ContactMessage } from "../../../common/contact.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import { Button } from "../../components/button.tsx";
import { cardClass, Pill } from "../../components/card.tsx";
import { errorTextClass, Field, Textarea } from "../../components/field.tsx";
import { useAdminAction } from "../../lib/admin-data.ts";

/** One contact message in the inbox: read it, mark it read or unread, reply by e-mail. */
export function AdminMessageCard({ message }: { message: ContactMessage }) {
  const id = useId();
  const { busy, result } = useAdminAction(message.id);
  const replyError =
    result && !result.ok && result.intent === "reply" ? (result.fields?.message ?? result.error) : undefined;
  const replied = result?.ok === true && result.intent === "reply";

  return (
    <article
      className={`${cardClass} ${message.read ? "" : "border-l-4 border-l-brand-600 dark:border-l-brand-100"}`}
      aria-labelledby={`${id}-from`}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={`${id}-from`} className="font-semibold break-words">
            {message.name}{" "}
            <a href={`mailto:${message.email}`} className="font-normal break-all underline">
              {message.email}
            </a>
          </h2>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Received {formatDateTime(message.receivedAt)}
            {message.forwardedAt && " · forwarded"}
            {message.forwardError && ` · forwarding failed (${message.forwardError})`}
          </p>
        </div>
        <Pill tone={message.read ? "stone" : "brand"}>{message.read ? "Read" : "Unread"}</Pill>
      </header>
      <p className="mt-3 whitespace-pre-line break-words">{message.message}</p>

      {message.replies.length > 0 && (
        <ul aria-label="Replies sent" className="mt-3 space-y-2">
          {message.replies.map((reply) => (
            <li
              key={reply.sentAt}
              className="rounded-md border-l-4 border-brand-600 bg-stone-50 p-3 dark:bg-stone-950"
            >
              <p className="text-sm font-semibold">You replied on {formatDateTime(reply.sentAt)}</p>
              <p className="mt-1 whitespace-pre-line break-words text-sm">{reply.body}</p>
            </li>
          ))}
        </ul>
      )}

      <Form method="post" preventScrollReset className="mt-4">
        <input type="hidden" name="id" value={message.id} />
        <input type="hidden" name="read" value={message.read ? "false" : "true"} />
        <Button type="submit" name="intent" value="read" disabled={busy} variant="secondary" size="sm">
          {message.read ? "Mark as unread" : "Mark as read"}
        </Button>
      </Form>

      <details className="mt-3" open={replyError !== undefined}>
        <summary className="cursor-pointer py-2 text-sm font-medium">Reply by e-mail</summary>
        <Form
          method="post"
          preventScrollReset
          className="mt-2"
          key={replied ? message.replies.length : "draft"}
        >
          <input type="hidden" name="id" value={message.id} />
          <Field id={`${id}-reply`} label={<>Your reply to {message.email}</>} error={replyError} alert>
            <Textarea
              name="message"
              rows={4}
              maxLength={CONTACT_MESSAGE_MAX_LENGTH}
              required
              disabled={busy}
            />
          </Field>
          <Button type="submit" name="intent" value="reply" disabled={busy} size="sm" className="mt-2">
            {busy ? "Sending…" : "Send reply"}
          </Button>
        </Form>
      </details>
      {result && !result.ok && !replyError && (
        <p role="alert" className={errorTextClass}>
          {result.error}
        </p>
      )}
    </article>
  );
}
