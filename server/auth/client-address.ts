import { BlockList, isIP } from "node:net";
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

/**
 * Who is connecting, for the shop's own per-address limits (contact messages): the socket's peer, or
 * behind TRUSTED_PROXIES the last X-Forwarded-For entry that is not one of them, the rule Better Auth
 * follows. In-process requests (app.request() in tests) have no socket: the header's last entry stands in.
 */
export function clientAddress(c: Context, env: Env): string | undefined {
  return clientAddressOfPeer(peerAddress(c), c.req.header("x-forwarded-for"), env);
}

/**
 * clientAddress's rule from the socket's peer and the X-Forwarded-For header, for a request node hands over
 * before it becomes a fetch Request (the funnel counts product views there, replayed answers included).
 */
export function clientAddressOfPeer(
  peer: string | undefined,
  forwardedFor: string | undefined,
  env: Env,
): string | undefined {
  // Facing the internet itself, the shop believes only the socket (and skips reading the header).
  if (peer && env.TRUSTED_PROXIES.length === 0) return peer;
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => isIP(entry));
  if (!peer) return chain.at(-1);
  if (env.TRUSTED_PROXIES.length === 0) return peer;
  const trusted = trustedProxyList(env.TRUSTED_PROXIES);
  return [...chain, peer].reverse().find((address) => !isTrusted(trusted, address)) ?? peer;
}

/**
 * The client address Better Auth will see in the X-Forwarded-For that withClientAddress built: the last entry
 * that is not one of TRUSTED_PROXIES. For the shop's own limits inside Better Auth's hooks.
 */
export function clientAddressFromChain(
  forwardedFor: string | null | undefined,
  env: Env,
): string | undefined {
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => isIP(entry));
  if (env.TRUSTED_PROXIES.length === 0) return chain.at(-1);
  const trusted = trustedProxyList(env.TRUSTED_PROXIES);
  return [...chain].reverse().find((address) => !isTrusted(trusted, address)) ?? chain.at(-1);
}

// Built once per list: the fast path of kept answers asks on every request (server/replay.ts).
const builtLists = new WeakMap<string[], BlockList>();

function trustedProxyList(entries: string[]): BlockList {
  const built = builtLists.get(entries);
  if (built) return built;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  builtLists.set(entries, list);
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/**
 * Whether the request came through one of TRUSTED_PROXIES, whose headers (X-Forwarded-For, X-Request-Id)
 * may then be believed. In-process requests (no socket) count as proxied when proxies are configured.
 */
export function fromTrustedProxy(c: Context, env: Env): boolean {
  return isTrustedPeer(env, env.TRUSTED_PROXIES.length === 0 ? undefined : peerAddress(c));
}

/** Whether a connection from `peer` (none: in-process) is one of TRUSTED_PROXIES. */
export function isTrustedPeer(env: Env, peer: string | undefined): boolean {
  if (env.TRUSTED_PROXIES.length === 0) return false;
  return !peer || isTrusted(trustedProxyList(env.TRUSTED_PROXIES), peer);
}
