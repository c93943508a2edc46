import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export type SentMail = {
  file: string;
  to: string;
  replyTo: string | undefined;
  subject: string;
  text: string;
};

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/**
 * The mails a shop without SMTP_URL wrote to DATA_DIR/mail/, oldest first, with the headers and the plain
 * text part tests read (enough of MIME for the mailer's own output, not a general parser).
 */
export async function readMailFolder(dataDir: string): Promise<SentMail[]> {
  const folder = path.join(dataDir, "mail");
  const files = (await readdir(folder).catch(() => [] as string[]))
    .filter((file) => file.endsWith(".eml"))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const source = await readFile(path.join(folder, file), "utf8");
      const header = (name: string) =>
        source.match(new RegExp(`^${name}: (.*(?:\\n[ \\t].*)*)`, "im"))?.[1]?.replace(/\n[ \t]+/g, " ");
      const plain = source.match(
        /Content-Type: text\/plain[^\n]*\n(?:Content-Transfer-Encoding: ([^\n]+)\n)?\n([\s\S]*?)\n--/i,
      );
      const encoding = plain?.[1]?.trim().toLowerCase();
      const body = plain?.[2] ?? "";
      const text =
        encoding === "quoted-printable"
          ? decodeQuotedPrintable(body)
          : encoding === "base64"
            ? Buffer.from(body, "base64").toString("utf8")
            : body;
      return {
        file,
        to: header("To") ?? "",
        replyTo: header("Reply-To"),
        subject: header("Subject") ?? "",
        text,
      };
    }),
  );
}

/** Waits for mail that is sent after a response (e.g. forwarding), without fixed sleeps. */
export async function waitForMail(
  dataDir: string,
  matches: (mail: SentMail) => boolean,
  timeoutMs = 5000,
): Promise<SentMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readMailFolder(dataDir)).find(matches);
    if (found) return found;
    if (Date.now() > deadline) throw new Error("The expected e-mail was not sent");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
