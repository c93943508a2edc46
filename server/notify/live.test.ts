import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaHttp, TEST_PASSWORD } from "../../tests/accounts.ts";
import type { Shop } from "../../tests/fixtures.ts";
import { startShopInProcess } from "../../tests/in-process-shop.ts";
import { NOTIFY_LISTENER_APPLICATION_NAME } from "./notify-listener.ts";

/**
 * Two shops (instances, served from the test's process) on one PostgreSQL, as behind a proxy (decision 028): a session copied into a signed
 * cookie is trusted without the database on either, and ends on both within a second of a sign-out, a password
 * or role change or a deleted account on the other; a cart followed by server-sent events hears changes made
 * through the other, and is told to look again when the listener's connection is cut.
 */
// Long enough that an end seen within a second is the revocation's doing, not the cookie running out.
const CACHE_SECONDS = 10;

let a: Shop;
let b: Shop;
let sql: pg.Client;

beforeAll(async () => {
  // The shop's own cap on streams per client, not the test shops' generous one.
  const env = { SESSION_CACHE_SECONDS: String(CACHE_SECONDS), STREAMS_PER_CLIENT: "32" };
  a = await startShopInProcess({ env });
  b = await startShopInProcess({ env: { ...env, DATABASE_URL: a.databaseUrl ?? "" } });
  sql = new pg.Client({ connectionString: a.databaseUrl });
  await sql.connect();
  // The listeners open on the first session check. Once both listen (with the stamps they loaded), a copy one
  // wrote is trusted by both at once: their answers set no new one.
  const signedIn = await signUpViaHttp(a.url, "warm@example.in");
  const warm = jar(signedIn.cookie);
  await within(10_000, async () => {
    let fresh = 0;
    for (const shop of [a, b]) {
      fresh += (await call(shop, warm, "GET", "/api/auth/get-session")).headers.getSetCookie().length;
    }
    return fresh === 0;
  });
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await b?.stop();
  await a?.stop();
});

/** A browser's cookies for the shop: what Set-Cookie answers change, as a browser would keep them. */
function jar(initial: string) {
  const cookies = new Map(initial.split("; ").map((pair) => pair.split("=", 2) as [string, string]));
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = "", ...attributes] = line.split(";");
        const [name = "", value = ""] = pair.split("=", 2);
        const expired = attributes.some((attribute) => /max-age=0\b/i.test(attribute.trim()));
        if (expired || value === "") cookies.delete(name);
        else cookies.set(name, pair.slice(name.length + 1));
      }
    },
  };
}
type Jar = ReturnType<typeof jar>;

async function call(shop: Shop, cookies: Jar, method: string, path: string, body?: unknown) {
  const response = await fetch(`${shop.url}${path}`, {
    method,
    headers: { Cookie: cookies.header(), Origin: shop.url, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  cookies.take(response);
  return response;
}

type SessionAnswer = { session: { ipAddress: string | null }; user: { id: string; role: string } } | null;
const session = async (shop: Shop, cookies: Jar) =>
  (await (await call(shop, cookies, "GET", "/api/auth/get-session")).json()) as SessionAnswer;

/** Signs up on `a`, signs the account in again on `b` (a second device), and reads each session once there. */
async function twoDevices(email: string) {
  const account = await signUpViaHttp(a.url, email);
  const phone = jar(account.cookie);
  const signIn = await fetch(`${b.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: b.url },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const laptop = jar("");
  laptop.take(signIn);
  // A first read from the database on each instance leaves a signed copy trusted by both.
  for (const device of [phone, laptop]) await session(a, device);
  return { account, phone, laptop };
}

async function within(ms: number, check: () => Promise<boolean>) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return Date.now() - (deadline - ms);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${ms} ms`);
}

describe("the session, from a signed cookie on two instances", () => {
  it("is answered from the cookie on both instances, without the database", async () => {
    const { account, phone } = await twoDevices("cached@example.in");
    const before = (await session(a, phone))?.session.ipAddress;
    expect(before).toMatch(/\S/);
    // A change no trigger announces (the address a session was made from) is not seen through the cookie:
    // the answer came from it, on the instance that wrote it and on the other.
    await sql.query("update sessions set ip_address = '203.0.113.9' where user_id = $1", [account.userId]);
    for (const shop of [a, b]) {
      const answer = await session(shop, phone);
      expect(answer?.user.id).toBe(account.userId);
      expect(answer?.session.ipAddress).toBe(before);
    }
    expect((await call(b, phone, "GET", "/api/cart")).status).toBe(200);
  });

  it("ends on the other instance within a second of signing out", async () => {
    const { phone, laptop } = await twoDevices("sign-out@example.in");
    expect(await session(b, laptop)).not.toBeNull();
    const stale = laptop.header();
    expect((await call(a, laptop, "POST", "/api/auth/sign-out", {})).status).toBe(200);
    // The signed copy the laptop held before signing out, replayed on the other instance.
    const replayed = jar(stale);
    await within(1000, async () => (await session(b, replayed)) === null);
    expect((await call(b, replayed, "GET", "/api/cart")).status).toBe(401);
    expect(await session(b, phone)).not.toBeNull();
  });

  it("ends other devices' sessions on every instance within a second of a password change", async () => {
    const { phone, laptop } = await twoDevices("password@example.in");
    expect(await session(b, laptop)).not.toBeNull();
    const changed = await call(a, phone, "POST", "/api/auth/change-password", {
      currentPassword: TEST_PASSWORD,
      newPassword: "a-new-neem-password-2026",
      revokeOtherSessions: true,
    });
    expect(changed.status).toBe(200);
    await within(1000, async () => (await session(b, laptop)) === null);
    expect(await session(b, phone)).not.toBeNull();
  });

  it("carries a new role to the other instance within a second", async () => {
    const { account, laptop } = await twoDevices("role@example.in");
    expect((await session(b, laptop))?.user.role).toBe("customer");
    expect((await call(b, laptop, "GET", "/api/admin/orders")).status).toBe(403);
    await sql.query("update users set role = 'staff' where id = $1", [account.userId]);
    await within(1000, async () => (await session(b, laptop))?.user.role === "staff");
    await sql.query("update users set role = 'customer' where id = $1", [account.userId]);
    await within(1000, async () => (await call(b, laptop, "GET", "/api/admin/orders")).status === 403);
  });

  it("ends every session within a second of the account being deleted", async () => {
    const { account, phone, laptop } = await twoDevices("deleted@example.in");
    await sql.query("delete from users where id = $1", [account.userId]);
    for (const [shop, device] of [
      [a, phone],
      [b, laptop],
    ] as const) {
      await within(1000, async () => (await session(shop, device)) === null);
    }
  });
});

/** Reads a server-sent-events stream as {event, data} messages. */
async function openEvents(shop: Shop, cookies: Jar) {
  const controller = new AbortController();
  const response = await fetch(`${shop.url}/api/cart/events`, {
    headers: { Cookie: cookies.header(), Accept: "text/event-stream" },
    signal: controller.signal,
  });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const messages: { event: string; data: string }[] = [];
  let buffer = "";
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          if (event) messages.push({ event, data: /^data: ?(.*)$/m.exec(block)?.[1] ?? "" });
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // Aborted at the end of the test.
    }
  })();
  return {
    messages,
    async next(predicate: (message: { event: string; data: string }) => boolean, ms = 5000) {
      await within(ms, async () => messages.some(predicate));
      return messages.find(predicate);
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

describe("the cart, followed by a push across instances", () => {
  it("tells a tab on one instance of a change made through the other within 5 seconds", async () => {
    const { account, phone, laptop } = await twoDevices("push@example.in");
    const events = await openEvents(b, laptop);
    try {
      const first = await events.next((message) => message.event === "cart");
      expect(JSON.parse(first?.data ?? "{}")).toEqual({ userId: account.userId, version: 0 });
      const added = await call(a, phone, "POST", "/api/cart/items", { id: "coconut-oil", kind: "product" });
      expect(added.status).toBe(200);
      const { version } = (await added.json()) as { version: number };
      const elapsed = await within(5000, async () =>
        events.messages.some(
          (message) => message.data === JSON.stringify({ userId: account.userId, version }),
        ),
      );
      expect(elapsed).toBeLessThan(5000);
      // The other instance answers the new version and cart at once, from what it heard.
      expect(await (await call(b, laptop, "GET", "/api/cart/version")).json()).toEqual({
        userId: account.userId,
        version,
      });
      const cart = (await (await call(b, laptop, "GET", "/api/cart")).json()) as { version: number };
      expect(cart.version).toBe(version);
    } finally {
      await events.close();
    }
  });

  it("tells open tabs to look again when the listener's connection drops, and hears changes once back", async () => {
    const { account, phone, laptop } = await twoDevices("dropped@example.in");
    const events = await openEvents(b, laptop);
    try {
      await events.next((message) => message.event === "cart");
      // Only this file's: other files' shops on the same PostgreSQL keep theirs.
      await sql.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()",
        [NOTIFY_LISTENER_APPLICATION_NAME],
      );
      await events.next((message) => message.event === "refetch");
      // While deaf, or just back, nothing is answered from memory; the version is still right.
      await call(a, phone, "POST", "/api/cart/items", { id: "badam-mix", kind: "product" });
      await within(5000, async () => {
        const info = (await (await call(b, laptop, "GET", "/api/cart/version")).json()) as {
          version: number;
        };
        return info.version === 1;
      });
      // Reconnected (0.1 s after the loss) and listening again, the instance tells its tabs to look again (a
      // second "refetch"); from then on it hears the next change and the tab is told.
      await within(
        5000,
        async () => events.messages.filter((message) => message.event === "refetch").length >= 2,
      );
      await call(a, phone, "PUT", "/api/cart/items/badam-mix", { quantity: 3 });
      await events.next(
        (message) => message.data === JSON.stringify({ userId: account.userId, version: 2 }),
        5000,
      );
    } finally {
      await events.close();
    }
  });
});

describe("the cart's streams per client", () => {
  it("gives a slot back when a tab's connection closes, over real sockets", async () => {
    const guest = jar("");
    const tabs = [];
    try {
      for (let tab = 0; tab < 32; tab++) {
        const events = await openEvents(b, guest);
        await events.next((message) => message.event === "cart");
        tabs.push(events);
      }
      const refused = await fetch(`${b.url}/api/cart/events`, { headers: { Accept: "text/event-stream" } });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("too_many_streams");
      // The browser goes away: its socket closes, and the next tab from the address is let in.
      await tabs.shift()?.close();
      await within(2000, async () => {
        const response = await fetch(`${b.url}/api/cart/events`, {
          headers: { Accept: "text/event-stream" },
        });
        await response.body?.cancel();
        return response.status === 200;
      });
    } finally {
      await Promise.all(tabs.map((events) => events.close()));
    }
  });
});
