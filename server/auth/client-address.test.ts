import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../env.ts";
import { clientAddress } from "./client-address.ts";

const probe = (trustedProxies: string) => {
  const env = parseEnv({ TRUSTED_PROXIES: trustedProxies });
  return new Hono().get("/", (c) => c.text(clientAddress(c, env) ?? "unknown"));
};
// What @hono/node-server hands a handler: the socket the request came in on.
const fromPeer = (address: string) => ({
  incoming: { socket: { remoteAddress: address, remoteFamily: "IPv4", remotePort: 5555 } },
});
const ask = async (app: Hono, forwardedFor: string | null, peer: string) =>
  (
    await app.request(
      "/",
      { headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} },
      fromPeer(peer),
    )
  ).text();

describe("clientAddress", () => {
  it("is the connecting address when the shop faces the internet, whatever the client claims", async () => {
    expect(await ask(probe(""), "1.2.3.4", "203.0.113.9")).toBe("203.0.113.9");
  });

  it("walks X-Forwarded-For from the right past trusted proxies to the shopper", async () => {
    const app = probe("10.0.0.0/8");
    expect(await ask(app, "1.2.3.4, 198.51.100.7, 10.0.0.5", "10.0.0.2")).toBe("198.51.100.7");
    // A proxy that is not trusted is where the walk stops: the client could have written the rest.
    expect(await ask(app, "1.2.3.4", "203.0.113.9")).toBe("203.0.113.9");
  });
});
