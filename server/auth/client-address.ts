import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { Env } from "../env.ts";

/**
 * The request handed to Better Auth, with X-Forwarded-For telling it who is connecting: rate limits and
 * the session list key on that address.
 *
 * - No TRUSTED_PROXIES (the shop faces the internet itself): the header becomes the socket's peer
 *   address, whatever the client sent, so nobody can pick their own rate-limit bucket.
 * - TRUSTED_PROXIES set (behind nginx, a load balancer): the peer is appended to the chain the proxies
 *   built, and Better Auth walks it from the right, skipping the trusted proxies, to the shopper.
 *
 * Requests made in-process (tests through app.request()) have no socket; their headers pass unchanged.
 */
export function withClientAddress(c: Context, env: Env): Request {
  const peer = peerAddress(c);
  if (!peer) return c.req.raw;
  const forwarded = env.TRUSTED_PROXIES.length > 0 ? c.req.header("x-forwarded-for") : undefined;
  const headers = new Headers(c.req.raw.headers);
  headers.set("x-forwarded-for", forwarded ? `${forwarded}, ${peer}` : peer);
  return new Request(c.req.raw, { headers });
}

function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
