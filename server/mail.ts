import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { isMobileAccountEmail } from "../common/mobile-account.ts";
import type { Env } from "./env.ts";
import { log } from "./log.ts";

export type MailAttachment = { filename: string; content: Buffer; contentType: string };
export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  attachments?: MailAttachment[];
  /** Extra headers, e.g. a marketing mail's List-Unsubscribe (RFC 2369, 8058). */
  headers?: Record<string, string>;
};
export type Mailer = { send: (mail: Mail) => Promise<void> };

/**
 * Over SMTP_URL when it is set; otherwise each message is written to DATA_DIR/mail/ as an .eml file
 * and its subject and links are logged, so a shop run locally still shows every e-mail it sends.
 */
export function createMailer(env: Env, shopName: () => Promise<string> = async () => env.SHOP_NAME): Mailer {
  const mailer = createTransportMailer(env, shopName);
  return {
    // An account made with a mobile number has a stand-in address no one receives: nothing is sent to it.
    send: async (mail) => (isMobileAccountEmail(mail.to) ? undefined : mailer.send(mail)),
  };
}

/** `shopName` is read for each message: the From name is the owner's, as it stands when the mail goes (decision 079). */
function createTransportMailer(env: Env, shopName: () => Promise<string>): Mailer {
  const address = env.MAIL_FROM ?? env.SHOP_EMAIL;
  const fromNow = async () => ({ name: await shopName(), address });
  if (env.SMTP_URL) {
    const transport = nodemailer.createTransport(env.SMTP_URL);
    return {
      async send(mail) {
        await transport.sendMail({ from: await fromNow(), ...mail });
      },
    };
  }
  const folder = path.resolve(env.DATA_DIR, "mail");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: await fromNow(), ...mail });
      await mkdir(folder, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const safeRecipient = mail.to.replace(/[^a-z0-9@._-]/gi, "_");
      // The random part keeps two messages to one address within a millisecond from overwriting each other.
      const file = path.join(folder, `${stamp}-${safeRecipient}-${randomBytes(3).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      if (env.NODE_ENV !== "test") {
        log.info({ to: mail.to, subject: mail.subject, links, file }, "mail written to a file (no SMTP_URL)");
      }
    },
  };
}

/**
 * Connects to SMTP_URL and says EHLO (and signs in, when the URL carries a user), sending no mail: nodemailer's
 * verify(), for `npm run check:services`. Throws the server's answer.
 */
export async function verifySmtp(smtpUrl: string): Promise<void> {
  const url = new URL(smtpUrl);
  // A port that swallows the connection answers nothing; ten seconds is long enough for any mail server.
  url.searchParams.set("connectionTimeout", "10000");
  url.searchParams.set("greetingTimeout", "10000");
  const transport = nodemailer.createTransport(url.toString());
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}
