import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { escapeHtml } from "../common/escape-html.ts";
import { readBody, send } from "./fake-http.ts";

/** Who the provider says is signing in; tests change it between flows. */
export type OidcAccount = { sub: string; email: string; email_verified: boolean; name: string };

type PendingCode = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce?: string;
  account: OidcAccount;
};

/**
 * A small OpenID Connect provider on 127.0.0.1 for tests: discovery, JWKS, an authorisation page with a
 * "Continue" button, the token endpoint (client secret and PKCE checked) and userinfo. The shop talks to it
 * exactly as to Google; only GOOGLE_ISSUER points here.
 */
export async function startOidcServer(client: { clientId: string; clientSecret: string }) {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, OidcAccount>();
  const log: { tokenRequests: number; authorizePages: number } = { tokenRequests: 0, authorizePages: 0 };
  let account: OidcAccount = {
    sub: "oidc-user-1",
    email: "shopper@example.in",
    email_verified: true,
    name: "Test Shopper",
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      send(response, 500, { error: "server_error", error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", issuer);
    if (url.pathname === "/.well-known/openid-configuration") {
      return send(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        scopes_supported: ["openid", "email", "profile"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (url.pathname === "/jwks") return send(response, 200, { keys: [jwk] });
    if (url.pathname === "/authorize" && request.method === "GET") {
      log.authorizePages++;
      const params = url.searchParams;
      if (params.get("client_id") !== client.clientId)
        return send(response, 400, { error: "invalid_client" });
      if (params.get("response_type") !== "code" || params.get("code_challenge_method") !== "S256") {
        return send(response, 400, { error: "invalid_request" });
      }
      const hidden = [...params]
        .map(
          ([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
        )
        .join("");
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return response.end(`<!doctype html><html lang="en"><head><title>Test provider</title></head><body>
<h1>Sign in to the shop</h1><p>Signed in at the provider as ${escapeHtml(account.email)}.</p>
<form method="post" action="/authorize">${hidden}<button type="submit">Continue as ${escapeHtml(account.email)}</button></form>
</body></html>`);
    }
    if (url.pathname === "/authorize" && request.method === "POST") {
      const params = new URLSearchParams(await readBody(request));
      const redirectUri = params.get("redirect_uri") ?? "";
      const code = randomBytes(16).toString("hex");
      codes.set(code, {
        clientId: params.get("client_id") ?? "",
        redirectUri,
        codeChallenge: params.get("code_challenge") ?? "",
        nonce: params.get("nonce") ?? undefined,
        account: { ...account },
      });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", params.get("state") ?? "");
      back.searchParams.set("iss", issuer);
      response.writeHead(302, { Location: back.toString() });
      return response.end();
    }
    if (url.pathname === "/token" && request.method === "POST") {
      log.tokenRequests++;
      const params = new URLSearchParams(await readBody(request));
      const [basicId, basicSecret] = Buffer.from(
        (request.headers.authorization ?? "").replace(/^Basic /, ""),
        "base64",
      )
        .toString()
        .split(":")
        .map((part) => decodeURIComponent(part));
      const clientId = params.get("client_id") ?? basicId;
      const clientSecret = params.get("client_secret") ?? basicSecret;
      if (clientId !== client.clientId || clientSecret !== client.clientSecret) {
        return send(response, 401, { error: "invalid_client" });
      }
      const pending = codes.get(params.get("code") ?? "");
      codes.delete(params.get("code") ?? "");
      const verifier = params.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (
        !pending ||
        pending.clientId !== clientId ||
        pending.redirectUri !== params.get("redirect_uri") ||
        pending.codeChallenge !== challenge
      ) {
        return send(response, 400, { error: "invalid_grant" });
      }
      const accessToken = randomBytes(16).toString("hex");
      accessTokens.set(accessToken, pending.account);
      const idToken = await new SignJWT({ ...pending.account, nonce: pending.nonce })
        .setProtectedHeader({ alg: "RS256", kid: jwk.kid })
        .setIssuer(issuer)
        .setAudience(clientId)
        .setSubject(pending.account.sub)
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(privateKey);
      return send(response, 200, {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 3600,
        scope: "openid email profile",
        id_token: idToken,
      });
    }
    if (url.pathname === "/userinfo") {
      const signedIn = accessTokens.get((request.headers.authorization ?? "").replace(/^Bearer /, ""));
      return signedIn ? send(response, 200, signedIn) : send(response, 401, { error: "invalid_token" });
    }
    send(response, 404, { error: "not_found" });
  }

  return {
    issuer,
    log,
    /** The account the next sign-in at this provider is for. */
    signInAs(next: Partial<OidcAccount> & { email: string }) {
      account = {
        sub: `oidc-${next.email}`,
        email_verified: true,
        name: next.email.split("@")[0] ?? "",
        ...next,
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
