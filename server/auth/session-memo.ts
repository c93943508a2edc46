import { isStaffRole, type SessionUser } from "../../common/account.ts";
import type { Live } from "../notify/live.ts";

/** Signed copies remembered at once; past it the oldest is forgotten (and checked by Better Auth again). */
const MAX_COPIES = 20_000;

/** A session copy Better Auth accepted, as it was in the cookie, and what it says. */
export type KnownSession = {
  user: SessionUser;
  /** The copy's label (Better Auth's cookieCache.version) when it was written. */
  label: string;
  /** When the copy itself runs out, and when the session it copies does (ms since the epoch). */
  copyExpiresAt: number;
  sessionExpiresAt: number;
};

/** The two cookies a signed-in request carries, exactly as sent; null when either is missing or ambiguous. */
export type SessionCookies = { token: string; data: string };

export type SessionMemo = {
  /** The session cookies of a Cookie header, when the header has exactly one of each and no chunks. */
  cookiesOf: (header: string | null | undefined) => SessionCookies | null;
  /** Whether the header carries a session token at all (without one, nobody is signed in). */
  hasToken: (header: string | null | undefined) => boolean;
  /** The session these cookies carry, if Better Auth accepted them before and they would be accepted now. */
  known: (cookies: SessionCookies) => KnownSession | undefined;
  /** Whether a session remembered earlier would still be accepted now. */
  stillValid: (session: KnownSession) => boolean;
  /**
   * Remembers cookies Better Auth has just accepted from the copy (it answered a session and set no cookie);
   * returns what they say.
   */
  remember: (cookies: SessionCookies) => KnownSession | undefined;
  /**
   * Remembers the copy Better Auth has just set (the Set-Cookie headers of its answer to this request's
   * Cookie header) for the session it read, under the token cookie the browser will send with it; returns
   * what it says.
   */
  rememberIssued: (header: string | null | undefined, setCookies: string[]) => KnownSession | undefined;
  /** Remembers cookies another worker of this shop remembered (they are not handed on again). */
  rememberShared: (cookies: SessionCookies) => void;
  /** Signed-in requests whose session was known here, and those Better Auth checked (for the metrics). */
  counts: { known: number; checked: number };
};

type Payload = {
  session?: {
    session?: { expiresAt?: string };
    user?: { id?: unknown; email?: unknown; name?: unknown; role?: unknown };
    version?: string;
  };
  expiresAt?: number;
};

/**
 * A memo of the signed session copies (the `session_data` cookie, decision 069) that Better Auth has accepted,
 * keyed by the exact cookie strings, so a repeated request skips the HMACs, the JSON parse and Better Auth's
 * endpoint machinery. Each use checks again what Better Auth checks of a copy it has verified: its label
 * against what this instance has heard of the user (a revocation anywhere changes it), and both expiries.
 * Nothing here verifies a signature: only strings Better Auth accepted, byte for byte, are remembered.
 */
export function createSessionMemo(
  live: Pick<Live, "sessionVersion">,
  names: () => { token: string; data: string } | undefined,
  /** Hands each copy remembered here to the shop's other workers (server/cluster-sessions.ts). */
  share?: (cookies: SessionCookies) => void,
): SessionMemo {
  const copies = new Map<string, { data: string; session: KnownSession }>();

  const stillValid = (session: KnownSession) => {
    const now = Date.now();
    return (
      session.copyExpiresAt >= now &&
      session.sessionExpiresAt >= now &&
      live.sessionVersion(session.user.id) === session.label
    );
  };

  const scan = (header: string | null | undefined) => {
    const cookieNames = names();
    if (!header || !cookieNames) return null;
    let token: string | undefined;
    let data: string | undefined;
    let ambiguous = false;
    for (const part of header.split(";")) {
      const equals = part.indexOf("=");
      if (equals < 0) continue;
      const name = part.slice(0, equals).trim();
      if (name === cookieNames.token) {
        if (token !== undefined) ambiguous = true;
        token = part.slice(equals + 1).trim();
      } else if (name === cookieNames.data) {
        if (data !== undefined) ambiguous = true;
        data = part.slice(equals + 1).trim();
      } else if (name.startsWith(`${cookieNames.data}.`)) {
        // A copy split over chunks is put together by Better Auth; not worth the second parser here.
        ambiguous = true;
      }
    }
    return { token, data, ambiguous };
  };

  const store = (cookies: SessionCookies) => {
    const session = decodeCopy(cookies.data);
    if (!session) return undefined;
    copies.delete(cookies.token);
    if (copies.size >= MAX_COPIES) copies.delete(copies.keys().next().value as string);
    copies.set(cookies.token, { data: cookies.data, session });
    return session;
  };
  const remember = (cookies: SessionCookies) => {
    const session = store(cookies);
    if (session) share?.(cookies);
    return session;
  };

  return {
    cookiesOf(header) {
      const found = scan(header);
      // A name sent twice could be read one way here and the other by Better Auth: left to Better Auth.
      if (!found || found.ambiguous || !found.token || !found.data) return null;
      return { token: found.token, data: found.data };
    },
    hasToken(header) {
      const found = scan(header);
      return found === null ? Boolean(header) : found.token !== undefined || found.ambiguous;
    },
    known(cookies) {
      const entry = copies.get(cookies.token);
      if (!entry || entry.data !== cookies.data) return undefined;
      if (stillValid(entry.session)) return entry.session;
      copies.delete(cookies.token);
      return undefined;
    },
    stillValid,
    remember,
    rememberIssued(header, setCookies) {
      // Better Auth wrote this copy from the session row it found by the token it had just verified, so it
      // would accept the copy with that token on the next request as it accepts any copy it signed: the
      // checks left are the ones each use makes (label, both expiries). Without this, that next request
      // (in a sale, often the order itself) pays for Better Auth checking its own work: two HMACs, the
      // copy's decoding and its endpoint machinery, about 0.8 ms of CPU (decision 069, fourth pass).
      const cookieNames = names();
      const sent = scan(header);
      if (!cookieNames || !sent || sent.ambiguous) return undefined;
      let token = sent.token;
      let data: string | undefined;
      for (const cookie of setCookies) {
        const pair = cookie.split(";", 1)[0] ?? "";
        const equals = pair.indexOf("=");
        if (equals < 0) continue;
        const name = pair.slice(0, equals).trim();
        const value = pair.slice(equals + 1).trim();
        if (name === cookieNames.token) token = value;
        else if (name === cookieNames.data) data = value;
        // A copy in chunks, as in cookiesOf, is left to Better Auth.
        else if (name.startsWith(`${cookieNames.data}.`)) return undefined;
      }
      // An empty value is a removal (signed out, or the copy refused), not a copy.
      if (!token || !data) return undefined;
      return remember({ token, data });
    },
    rememberShared(cookies) {
      // The same secret signs every worker's copies: one a sibling's Better Auth accepted or wrote, this
      // worker's would too. The checks each use makes (label, expiries) are made here, with what this worker
      // has heard.
      store(cookies);
    },
    counts: { known: 0, checked: 0 },
  };
}

/** What a compact copy (base64url JSON, Better Auth's strategy "compact") says; its signature was checked. */
function decodeCopy(value: string): KnownSession | undefined {
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(decodeURIComponent(value), "base64url").toString("utf8")) as Payload;
  } catch {
    return undefined;
  }
  const user = payload.session?.user;
  const sessionExpiresAt = new Date(payload.session?.session?.expiresAt ?? Number.NaN).getTime();
  if (
    !user ||
    typeof user.id !== "string" ||
    typeof user.email !== "string" ||
    typeof user.name !== "string" ||
    typeof payload.expiresAt !== "number" ||
    !Number.isFinite(sessionExpiresAt)
  ) {
    return undefined;
  }
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      role: typeof user.role === "string" && isStaffRole(user.role) ? user.role : "customer",
    },
    label: payload.session?.version || "1",
    copyExpiresAt: payload.expiresAt,
    sessionExpiresAt,
  };
}
