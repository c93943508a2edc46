import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../tests/database.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(() => shop.close());

const ORIGIN = "http://localhost:3000";
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  shop.app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN, ...headers },
    body: JSON.stringify(body),
  });

describe("password accounts (the core the other features build on)", () => {
  it("signs up, sets an HttpOnly SameSite=Lax session cookie, and knows the user as a customer", async () => {
    const response = await post("/api/auth/sign-up/email", {
      name: "Asha",
      email: "asha@example.in",
      password: "turmeric-and-neem",
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const session = await shop.app.request("/api/auth/get-session", {
      headers: { Cookie: cookie.split(";")[0] ?? "" },
    });
    const body = await session.json();
    expect(body.user).toMatchObject({ email: "asha@example.in", role: "customer" });
    expect(JSON.stringify(body)).not.toMatch(/password/i);
  });

  it("never lets a client make itself an admin", async () => {
    const response = await post("/api/auth/sign-up/email", {
      name: "Mallory",
      email: "mallory@example.in",
      password: "let-me-in-please",
      role: "admin",
    });
    if (response.status === 200) {
      expect((await response.json()).user.role).not.toBe("admin");
    } else {
      expect(response.status).toBe(400);
    }
  });

  it("refuses passwords shorter than 8 characters", async () => {
    const response = await post("/api/auth/sign-up/email", {
      name: "S",
      email: "s@example.in",
      password: "short",
    });
    expect(response.status).toBe(400);
  });

  it("refuses a cookie-carrying request from another origin (cross-site request forgery)", async () => {
    const signIn = await post("/api/auth/sign-in/email", {
      email: "asha@example.in",
      password: "turmeric-and-neem",
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const response = await post("/api/auth/sign-out", {}, { Origin: "https://evil.example", Cookie: cookie });
    expect(response.status).toBe(403);
  });
});
