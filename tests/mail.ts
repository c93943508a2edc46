import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** One message the shop wrote to DATA_DIR/mail/ (no SMTP_URL), decoded enough for tests to read. */
export type SentMail = {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
};

export async function readMails(dataDir: string): Promise<SentMail[]> {
  const folder = path.join(dataDir, "mail");
  if (!existsSync(folder)) return [];
  const files = (await readdir(folder)).filter((file) => file.endsWith(".eml")).sort();
  return Promise.all(
    files.map(async (file) => parseEml(file, await readFile(path.join(folder, file), "utf8"))),
  );
}

/** Waits for the first message to `to` whose subject matches; mail is sent after the response in places. */
export async function waitForMail(
  dataDir: string,
  match: { to: string; subject: RegExp; after?: number },
): Promise<SentMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await readMails(dataDir);
    const found = mails
      .slice(match.after ?? 0)
      .find((mail) => mail.to === match.to && match.subject.test(mail.subject));
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

function parseEml(file: string, source: string): SentMail {
  const [head = "", ...rest] = source.split(/\r?\n\r?\n/);
  const headers = parseHeaders(head);
  const body = rest.join("\n\n");
  const boundary = /boundary="?([^";]+)"?/.exec(headers["content-type"] ?? "")?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => {
          const [partHead = "", ...partBody] = part.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
          return { headers: parseHeaders(partHead), body: partBody.join("\n\n") };
        })
    : [{ headers, body }];
  const decoded = (type: string) => {
    const part = parts.find((candidate) => (candidate.headers["content-type"] ?? "").startsWith(type));
    return part ? decodeBody(part.body, part.headers["content-transfer-encoding"]) : "";
  };
  const text = decoded("text/plain");
  return {
    file,
    to: headers.to ?? "",
    subject: decodeWords(headers.subject ?? ""),
    text,
    html: decoded("text/html"),
    links: text.match(/https?:\/\/\S+/g) ?? [],
  };
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeBody(body: string, encoding = "7bit"): string {
  if (encoding.toLowerCase() === "base64") return Buffer.from(body, "base64").toString("utf8");
  if (encoding.toLowerCase() !== "quoted-printable") return body;
  const joined = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index++) {
    const char = joined[index] ?? "";
    const hex = joined.slice(index + 1, index + 3);
    if (char === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** RFC 2047 encoded words, which nodemailer uses for subjects with non-ASCII characters. */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeBody(data.replace(/_/g, " "), "quoted-printable"),
  );
}
