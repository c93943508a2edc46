import { openSync } from "node:fs";
import pino from "pino";

const level = process.env.LOG_LEVEL || (process.env.NODE_ENV === "test" ? "warn" : "info");
/**
 * Where every line goes, one stream for both loggers below: stdout, or the file LOG_FILE names (appended).
 * Written asynchronously: lines made while a write is under way go out together in the next one, instead
 * of one blocking write per line (an access line per request: 12% more requests a second, measured on
 * kept answers). pino writes what is left synchronously when the process exits, crashes included; only a
 * SIGKILL or a power cut loses the lines of the write under way.
 */
const destination = pino.destination({
  // Opened here, at once: a file sonic-boom opens in the background drops the lines of a process that
  // exits before it is open (one that cannot start).
  dest: process.env.LOG_FILE ? openSync(process.env.LOG_FILE, "a") : 1,
  sync: false,
});

let stampedAt = 0;
let stamp = "";
/** pino's ISO time, made once per millisecond: at thousands of lines a second most share one. */
function isoTime(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

/**
 * The one logger: JSON lines on stdout (or LOG_FILE), one object per event. Nothing personal or secret is
 * logged on purpose, and the serializers below strip what libraries put into error messages by accident.
 */
export const log = pino(
  {
    level,
    base: { pid: process.pid },
    timestamp: isoTime,
    serializers: { err: serializeError, error: serializeError },
    redact: {
      paths: [
        "password",
        "token",
        "*.password",
        "*.token",
        "headers.cookie",
        "headers.authorization",
        "*.headers.cookie",
        "*.headers.authorization",
      ],
      censor: "[redacted]",
    },
  },
  destination,
);

export type Logger = typeof log;

/**
 * The access line of every request, on the same stdout in the same shape. Its fields are fixed (method,
 * route pattern, status, duration, request id: see recordRequest), none of them personal, so it goes
 * without the redaction every other line passes through, which cost a kept answer as much as its headers.
 */
export const accessLog = pino({ level, base: { pid: process.pid }, timestamp: isoTime }, destination);

// Drizzle puts a failed query's parameters (session tokens, e-mail addresses, password hashes) into its
// message after "params:"; connection URLs carry passwords; query strings carry magic-link tokens.
export function redact(text: string): string {
  return text
    .replace(/params:[\s\S]*$/i, "params: [redacted]")
    .replace(/(postgres(?:ql)?:\/\/[^:/@\s]+:)[^@\s]+@/gi, "$1[redacted]@")
    .replace(/([?&](?:token|code|state|password|secret|key)=)[^&\s"']+/gi, "$1[redacted]")
    .replace(/\b(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, "$1[redacted]");
}

type Serialized = { type: string; message: string; code?: string; stack?: string; cause?: Serialized };

// pino runs its serializers on what callers already serialized.
const isSerialized = (value: unknown): value is Serialized =>
  typeof value === "object" &&
  value !== null &&
  !(value instanceof Error) &&
  typeof (value as Serialized).type === "string" &&
  typeof (value as Serialized).message === "string";

/** An error as a log line carries it: type, code and a redacted message, causes followed a few levels. */
export function serializeError(error: unknown, depth = 0): Serialized {
  if (isSerialized(error)) return error;
  if (!(error instanceof Error)) return { type: typeof error, message: redact(String(error)) };
  const code = (error as { code?: unknown }).code;
  const serialized: Serialized = {
    type: error.name,
    message: redact(error.message),
    ...(typeof code === "string" ? { code } : {}),
  };
  // Only the frames: a stack's first lines repeat the message, with whatever it carries.
  const frames = error.stack?.split("\n").filter((line) => /^\s+at /.test(line));
  if (frames?.length) serialized.stack = redact(frames.slice(0, 8).join("\n"));
  if (error.cause !== undefined && depth < 4) serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}

/** A library's extra log arguments: errors serialized, anything else reduced to redacted text. */
export function serializeLogArgument(argument: unknown): unknown {
  if (argument instanceof Error) return serializeError(argument);
  if (typeof argument === "string") return redact(argument);
  try {
    return redact(JSON.stringify(argument) ?? String(argument)).slice(0, 2_000);
  } catch {
    return "[unserializable]";
  }
}
