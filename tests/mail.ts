import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { type AddressObject, simpleParser } from "mailparser";

/** One message the shop wrote to DATA_DIR/mail/ (it does without SMTP_URL), parsed by mailparser. */
export type SentMail = {
  file: string;
  /** The first recipient's address. */
  to: string;
  replyTo: string | undefined;
  /** The From display name. */
  fromName: string | undefined;
  subject: string;
  text: string;
  html: string;
  /** Every link in the plain-text part. */
  links: string[];
  /** The List-Unsubscribe header's value, as written, when the mail has one. */
  listUnsubscribe: string | undefined;
  attachments: { filename: string; contentType: string; content: Buffer }[];
};

const firstAddress = (addresses: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(addresses) ? addresses[0] : addresses)?.value[0]?.address;

/**
 * Each message parsed once: waiting for a mail polls the folder every 50 ms, and parsing every message (with
 * its PDFs) at every poll took the CPU the shop needed to send the one awaited. A file is parsed again if its
 * size or time changed, so one read while it was being written is not kept.
 */
const parsedMails = new Map<string, { size: number; mtimeMs: number; mail: SentMail }>();

async function parseMail(folder: string, file: string): Promise<SentMail> {
  const where = path.join(folder, file);
  const { size, mtimeMs } = await stat(where);
  const known = parsedMails.get(where);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.mail;
  const parsed = await simpleParser(await readFile(where));
  const text = parsed.text ?? "";
  const mail: SentMail = {
    file,
    to: firstAddress(parsed.to) ?? "",
    replyTo: firstAddress(parsed.replyTo),
    fromName: parsed.from?.value[0]?.name,
    subject: parsed.subject ?? "",
    text,
    html: typeof parsed.html === "string" ? parsed.html : "",
    links: text.match(/https?:\/\/\S+/g) ?? [],
    listUnsubscribe: parsed.headerLines
      .find((header) => header.key === "list-unsubscribe")
      ?.line.replace(/^List-Unsubscribe:\s*/i, ""),
    attachments: parsed.attachments.map((attachment) => ({
      filename: attachment.filename ?? "",
      contentType: attachment.contentType,
      content: attachment.content,
    })),
  };
  parsedMails.set(where, { size, mtimeMs, mail });
  return mail;
}

/** Every message sent so far, oldest first. */
export async function readMails(dataDir: string): Promise<SentMail[]> {
  const folder = path.join(dataDir, "mail");
  const files = (await readdir(folder).catch(() => [] as string[]))
    .filter((file) => file.endsWith(".eml"))
    .sort();
  return Promise.all(files.map((file) => parseMail(folder, file)));
}

/** The messages sent to one address, oldest first. */
export async function mailsTo(dataDir: string, to: string): Promise<SentMail[]> {
  return (await readMails(dataDir)).filter((mail) => mail.to === to);
}

/**
 * Waits for the first message to `to` (whose subject matches, when given) among those sent after the
 * first `after`: some mail is sent after the response.
 */
export async function waitForMail(
  dataDir: string,
  match: { to: string; subject?: RegExp; after?: number },
): Promise<SentMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await readMails(dataDir);
    const found = mails
      .slice(match.after ?? 0)
      .find((mail) => mail.to === match.to && (match.subject?.test(mail.subject) ?? true));
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = mails.map((mail) => `${mail.to}: ${mail.subject}`).join("\n  ");
      throw new Error(`No mail to ${match.to} matching ${match.subject}; sent so far:\n  ${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The link in a message whose path starts with `pathPrefix`. */
export function linkIn(mail: SentMail, pathPrefix: string): string {
  const link = mail.links.find((candidate) => new URL(candidate).pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`No ${pathPrefix} link in "${mail.subject}": ${mail.links.join(", ")}`);
  return link;
}

/** The SMS the shop wrote to DATA_DIR/sms/ (it does without a provider) whose text mentions `text`, waited for. */
export async function smsMentioning(dataDir: string, text: string, timeoutMs = 10_000): Promise<string[]> {
  const folder = path.join(dataDir, "sms");
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const files = await readdir(folder).catch(() => [] as string[]);
    const texts = (await Promise.all(files.map((file) => readFile(path.join(folder, file), "utf8")))).filter(
      (sms) => sms.includes(text),
    );
    if (texts.length > 0 || Date.now() > deadline) return texts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
