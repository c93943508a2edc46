import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, signUpWithRole } from "../../tests/accounts.ts";
import { setUpTestApp } from "../../tests/database.ts";
import { handleError } from "../errors.ts";
import { requireAdmin, requireUser } from "./session.ts";

const shop = setUpTestApp();
let probe: Hono;
beforeAll(async () => {
  probe = new Hono()
    .get("/user", async (c) => c.json(await requireUser(shop.deps, c)))
    .get("/admin", async (c) => c.json(await requireAdmin(shop.deps, c)))
    .onError(handleError);
});

describe("who is calling", () => {
  it("answers 401 signed out, 403 for a customer on admin, 200 for an admin", async () => {
    expect((await probe.request("/user")).status).toBe(401);
    expect((await probe.request("/admin")).status).toBe(401);

    const customer = await signUpViaApp(shop.app, "customer@example.in");
    const asCustomer = { headers: { Cookie: customer.cookie } };
    expect(await (await probe.request("/user", asCustomer)).json()).toMatchObject({
      email: "customer@example.in",
      role: "customer",
    });
    const forbidden = await probe.request("/admin", asCustomer);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.code).toBe("forbidden");

    const admin = await signUpWithRole(shop, "staff@example.in", "owner");
    expect((await probe.request("/admin", { headers: { Cookie: admin.cookie } })).status).toBe(200);
  });
});
