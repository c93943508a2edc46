import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp } from "../tests/accounts.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../tests/database.ts";
import { createShop } from "./app.ts";

/**
 * The signed-in fast lane (decision 069) over real HTTP: a repeated read of the cart version, the cart or the
 * session is answered without reaching the app, with the app's own bytes and headers, and never after what it
 * depends on changed (a change by the shopper, one heard by NOTIFY, a revocation).
 */
// Short, so a copy's own end is near; long enough for a test.
const CACHE_SECONDS = 6;

let test: TestApp;
let server: Server;
let url: string;
const reached: string[] = [];

beforeAll(async () => {
  test = await createTestApp({ SESSION_CACHE_SECONDS: String(CACHE_SECONDS) });
  const shop = createShop(test.deps);
  const fetchApp = shop.app.fetch;
  shop.app.fetch = (request, ...rest) => {
    reached.push(new URL(request.url).pathname);
    return fetchApp(request, ...rest);
  };
  server = createServer(shop.listener());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Both listeners connect; copies are trusted as soon as the session listener has read the recent stamps.
  test.deps.catalogue.start();
  await within(10_000, async () => test.deps.live.listening() && test.deps.catalogue.listening());
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await test?.close();
});

/** A browser's cookie header kept from the Set-Cookie answers, the session copy included. */
async function signedIn(email: string) {
  const account = await signUpViaApp(test.app, email);
  const jar = new Map(account.cookie.split("; ").map((pair) => [pair.split("=")[0] ?? "", pair] as const));
  const first = await fetch(`${url}/api/cart/version`, { headers: { Cookie: account.cookie } });
  for (const line of first.headers.getSetCookie()) {
    const pair = line.split(";")[0] ?? "";
    jar.set(pair.split("=")[0] ?? "", pair);
  }
  const cookie = [...jar.values()].join("; ");
  expect(cookie).toMatch(/\.session_data=[^;]/);
  return { ...account, cookie };
}

async function get(path: string, cookie: string, headers: Record<string, string> = {}) {
  const before = reached.length;
  const response = await fetch(`${url}${path}`, { headers: { Cookie: cookie, ...headers } });
  return {
    response,
    text: await response.text(),
    viaApp: reached.slice(before).includes(path),
  };
}

const lasting = (response: Response) =>
  [...response.headers]
    .filter(([name]) => !["x-request-id", "date", "content-length", "transfer-encoding"].includes(name))
    .sort();

async function post(path: string, cookie: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: TEST_ORIGIN, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

async function within(ms: number, check: () => Promise<boolean>) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${ms} ms`);
}

describe("a signed-in read asked again", () => {
  it("is answered without the app, with the app's body and headers, for each encoding", async () => {
    const shopper = await signedIn("again@example.in");
    await post("/api/cart/items", shopper.cookie, { id: "coconut-oil", kind: "product" });
    for (const path of ["/api/cart/version", "/api/cart", "/api/auth/get-session"]) {
      for (const encoding of ["identity", "gzip, deflate, br"]) {
        const headers = { "Accept-Encoding": encoding };
        const first = await get(path, shopper.cookie, headers);
        expect(first.response.status).toBe(200);
        expect(first.viaApp).toBe(true);
        const again = await get(path, shopper.cookie, headers);
        expect(again.viaApp).toBe(false);
        expect(again.response.status).toBe(200);
        expect(again.text).toBe(first.text);
        expect(lasting(again.response)).toEqual(lasting(first.response));
        // Each answer its own request id, Better Auth's too.
        const id = first.response.headers.get("x-request-id");
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(again.response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
        expect(again.response.headers.get("x-request-id")).not.toBe(id);
      }
    }
    expect(JSON.parse((await get("/api/cart", shopper.cookie)).text).lines).toHaveLength(1);
  });

  it("is made afresh after the shopper's own change, at once", async () => {
    const shopper = await signedIn("own-change@example.in");
    await get("/api/cart", shopper.cookie);
    expect((await get("/api/cart", shopper.cookie)).viaApp).toBe(false);
    const added = await post("/api/cart/items", shopper.cookie, { id: "badam-mix", kind: "product" });
    const version = await get("/api/cart/version", shopper.cookie);
    expect(JSON.parse(version.text).version).toBe(added.version);
    const cart = await get("/api/cart", shopper.cookie);
    expect(cart.viaApp).toBe(true);
    expect(JSON.parse(cart.text).lines.map((line: { id: string }) => line.id)).toEqual(["badam-mix"]);
  });

  it("follows a change made elsewhere (heard by NOTIFY) within a second", async () => {
    const shopper = await signedIn("elsewhere@example.in");
    const before = JSON.parse((await get("/api/cart/version", shopper.cookie)).text).version as number;
    expect((await get("/api/cart/version", shopper.cookie)).viaApp).toBe(false);
    await test.db.execute(
      sql`insert into carts (user_id, version) values (${shopper.userId}, ${before + 5})
          on conflict (user_id) do update set version = ${before + 5}`,
    );
    await within(1000, async () => {
      return JSON.parse((await get("/api/cart/version", shopper.cookie)).text).version === before + 5;
    });
  });

  it("ends within a second of the session's revocation, and a changed user is read again", async () => {
    const shopper = await signedIn("revoked@example.in");
    await get("/api/auth/get-session", shopper.cookie);
    expect((await get("/api/auth/get-session", shopper.cookie)).viaApp).toBe(false);
    await test.db.execute(sql`update users set name = 'Renamed' where id = ${shopper.userId}`);
    await within(1000, async () => {
      const answer = await get("/api/auth/get-session", shopper.cookie);
      return JSON.parse(answer.text)?.user.name === "Renamed";
    });
    await test.db.execute(sql`delete from sessions where user_id = ${shopper.userId}`);
    await within(1000, async () => (await get("/api/cart", shopper.cookie)).response.status === 401);
    expect(JSON.parse((await get("/api/auth/get-session", shopper.cookie)).text)).toBeNull();
    expect((await get("/api/cart/version", shopper.cookie)).text).toBe('{"userId":null,"version":0}');
  });
});
