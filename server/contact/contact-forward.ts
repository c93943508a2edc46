import type { Deps } from "../deps.ts";
import { log, redact } from "../log.ts";
import { textToHtml } from "../mail-html.ts";
import { recordForwarding, type StoredMessage } from "./contact.data.ts";

const FORWARD_TIMEOUT_MS = 10_000;

/**
 * Passes a stored message on to CONTACT_FORWARD_URL (the spec's form-handling service call: a JSON POST of
 * {name, email, message}, its answer read for ok and errors[0].message) and/or CONTACT_FORWARD_EMAIL.
 * The message is already safe in the inbox, so this runs after the response and only records the outcome.
 */
export async function forwardContactMessage(
  { db, env, mailer }: Deps,
  message: StoredMessage,
): Promise<void> {
  if (!env.CONTACT_FORWARD_URL && !env.CONTACT_FORWARD_EMAIL) return;
  const problems: string[] = [];
  if (env.CONTACT_FORWARD_URL) {
    try {
      const response = await fetch(env.CONTACT_FORWARD_URL, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ name: message.name, email: message.email, message: message.message }),
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      const data = (await response.json().catch(() => undefined)) as
        | { ok?: boolean; errors?: { message?: string }[] }
        | undefined;
      if (!response.ok || data?.ok === false) {
        problems.push(`form endpoint: ${data?.errors?.[0]?.message ?? `HTTP ${response.status}`}`);
      }
    } catch (error) {
      problems.push(`form endpoint: ${(error as Error).message}`);
    }
  }
  if (env.CONTACT_FORWARD_EMAIL) {
    const text = [
      `${message.name} <${message.email}> wrote through the contact form on ${message.createdAt.toUTCString()}:`,
      message.message,
      `Reply to this e-mail to answer them, or use ${env.PUBLIC_URL}/admin/messages.`,
    ].join("\n\n");
    try {
      await mailer.send({
        to: env.CONTACT_FORWARD_EMAIL,
        replyTo: message.email,
        subject: `Contact form: ${message.name}`,
        text,
        html: textToHtml(text),
      });
    } catch (error) {
      problems.push(`e-mail: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) {
    log.error({ messageId: message.id, problems: problems.map(redact) }, "contact message forwarding failed");
  }
  await recordForwarding(db, message.id, problems.length > 0 ? problems.join("; ") : undefined);
}
