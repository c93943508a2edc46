import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { setUpTestApp } from "../../tests/database.ts";
import { adminRoutes } from "./admin.routes.ts";

const shop = setUpTestApp();
let customer: TestAccount;
let admin: TestAccount;
beforeAll(async () => {
  customer = await signUpViaApp(shop.app, "customer@example.in");
  admin = await signUpWithRole(shop, "staff@example.in", "owner");
});

const as = (account: TestAccount | null, method = "GET") => ({
  method,
  headers: {
    Origin: "http://localhost:3000",
    ...(account ? { Cookie: account.cookie } : {}),
    ...(method === "GET" ? {} : { "Content-Type": "application/json" }),
  },
  ...(method === "GET" ? {} : { body: "{}" }),
});

/** Every endpoint mounted under /api/admin, including those other features add later. */
function adminEndpoints() {
  const seen = new Set<string>();
  for (const route of adminRoutes(shop.deps).routes) {
    if (route.method === "ALL" || route.path.endsWith("*")) continue;
    seen.add(`${route.method} /api/admin${route.path.replace(/:[^/]+/g, "x")}`);
  }
  return [...seen].map((entry) => {
    const [method = "GET", path = ""] = entry.split(" ");
    return { method, path };
  });
}

describe("/api/admin: decided on the server", () => {
  it("has endpoints to guard", () => {
    expect(adminEndpoints()).toContainEqual({ method: "GET", path: "/api/admin/summary" });
  });

  it("answers 401 signed out and 403 for a customer on every admin endpoint, unknown paths too", async () => {
    const endpoints = [...adminEndpoints(), { method: "GET", path: "/api/admin/no-such-thing" }];
    for (const { method, path } of endpoints) {
      const signedOut = await shop.app.request(path, as(null, method));
      expect(signedOut.status, `${method} ${path} signed out`).toBe(401);
      expect((await signedOut.json()).error.code).toBe("unauthenticated");
      const forbidden = await shop.app.request(path, as(customer, method));
      expect(forbidden.status, `${method} ${path} as a customer`).toBe(403);
      expect((await forbidden.json()).error).toEqual({
        code: "forbidden",
        message: "This account has no admin access.",
      });
    }
  });

  it("lets an admin through to every admin endpoint", async () => {
    for (const { method, path } of adminEndpoints()) {
      const response = await shop.app.request(path, as(admin, method));
      expect([401, 403], `${method} ${path} as an admin`).not.toContain(response.status);
    }
    expect((await shop.app.request("/api/admin/no-such-thing", as(admin))).status).toBe(404);
  });

  it("gives the dashboard its figures", async () => {
    const response = await shop.app.request("/api/admin/summary", as(admin));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      customers: 1,
      newCustomersLast7Days: 1,
      admins: 1,
      products: 21,
      productsOutOfStock: expect.any(Number),
      combos: 4,
    });
  });
});
