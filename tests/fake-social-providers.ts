import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { escapeHtml } from "../common/escape-html.ts";
import { readBody, send } from "./fake-http.ts";

export type FakeProviderKind = "facebook" | "github" | "twitter";

/** Who is signed in at the provider; tests change it between flows. */
export type FakeProviderAccount = {
  id: string;
  name: string;
  /** GitHub's `login`, X's `username`. */
  username: string;
  /**
   * Facebook: the `email` field (absent for an account made with a phone number). GitHub: the public
   * profile address on `/user` (null when private). X: the `confirmed_email`.
   */
  email?: string;
  /** GitHub's `/user/emails`, with its flags. */
  emails?: { email: string; primary: boolean; verified: boolean; visibility: "public" | "private" | null }[];
};

/** What the app is allowed at the provider, as configured in its developer console. */
export type FakeProviderApp = {
  /** X: "Request email from users". GitHub: a GitHub App's "Email addresses" permission. */
  emailPermission: boolean;
};

type PendingCode = {
  redirectUri: string;
  codeChallenge?: string;
  scopes: string[];
  account: FakeProviderAccount;
};

type Grant = { account: FakeProviderAccount; scopes: string[] };

/** How an endpoint fails: a 500 answer, or the connection dropped (the provider is down). */
export type Outage = "500" | "down";

/**
 * A local copy of Facebook Login, a GitHub OAuth App or X's OAuth 2.0, on 127.0.0.1, as each documents it:
 * the authorize page (state required; PKCE S256 required by X, optional at GitHub, not used by Facebook),
 * the token endpoint (client credentials checked the provider's way, each code used once, bound to its
 * redirect URI and PKCE challenge), and the profile endpoints with the provider's field names and shapes.
 * The shop reaches it through FACEBOOK_WEB_BASE / FACEBOOK_GRAPH_BASE, GITHUB_WEB_BASE / GITHUB_API_BASE and
 * TWITTER_WEB_BASE / TWITTER_API_BASE, all set to `base`.
 */
export async function startFakeProvider(
  kind: FakeProviderKind,
  client: { clientId: string; clientSecret: string },
) {
  const codes = new Map<string, PendingCode>();
  const grants = new Map<string, Grant>();
  const app: FakeProviderApp = { emailPermission: true };
  const outages: { token?: Outage; profile?: Outage } = {};
  const log = {
    /** Every request's method and path with its query, in order. */
    requests: [] as string[],
    tokenRequests: 0,
    /** Every code and access token handed out, so a test can check none of them reaches a log. */
    secrets: [] as string[],
  };
  let account = defaultAccount(kind);

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      send(response, 500, { error: "server_error", error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const paths = {
    facebook: { authorize: /^\/v\d+\.\d+\/dialog\/oauth$/, token: /^\/v\d+\.\d+\/oauth\/access_token$/ },
    github: { authorize: /^\/login\/oauth\/authorize$/, token: /^\/login\/oauth\/access_token$/ },
    twitter: { authorize: /^\/i\/oauth2\/authorize$/, token: /^\/2\/oauth2\/token$/ },
  }[kind];

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", base);
    log.requests.push(`${request.method} ${url.pathname}${url.search}`);
    if (paths.authorize.test(url.pathname)) {
      return request.method === "POST"
        ? decide(new URLSearchParams(await readBody(request)), response)
        : authorizePage(url.searchParams, response);
    }
    if (paths.token.test(url.pathname)) {
      log.tokenRequests++;
      if (outages.token === "down") return request.socket.destroy();
      if (outages.token === "500") return send(response, 500, { error: "server_error" });
      const params = new URLSearchParams(request.method === "POST" ? await readBody(request) : url.search);
      return exchange(request, params, response);
    }
    if (outages.profile === "down") return request.socket.destroy();
    if (outages.profile === "500") return send(response, 500, { error: "server_error" });
    if (kind === "facebook") return facebookGraph(request, url, response);
    if (kind === "github") return githubApi(request, url, response);
    return twitterApi(request, url, response);
  }

  function authorizePage(params: URLSearchParams, response: ServerResponse) {
    const problem = checkAuthorizeRequest(params);
    if (problem) return send(response, 400, { error: "invalid_request", error_description: problem });
    const hidden = [...params]
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join("");
    const label = { facebook: "Facebook", github: "GitHub", twitter: "X" }[kind];
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><title>${label} (test)</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<h1>${label}: allow the shop to sign you in?</h1><p>Signed in at ${label} as ${escapeHtml(account.name)}.</p>
<form method="post">${hidden}<button type="submit" name="decision" value="allow">Continue as ${escapeHtml(account.name)}</button>
<button type="submit" name="decision" value="deny">Cancel</button></form></body></html>`);
  }

  function checkAuthorizeRequest(params: URLSearchParams): string | null {
    if (params.get("client_id") !== client.clientId) return "unknown client_id";
    if (!params.get("redirect_uri")) return "redirect_uri is required";
    if (!params.get("state")) return "state is required";
    if (kind !== "github" && params.get("response_type") !== "code") return "response_type must be code";
    const challenge = params.get("code_challenge");
    if (kind === "twitter" && (!challenge || params.get("code_challenge_method") !== "S256")) {
      return "PKCE with S256 is required";
    }
    if (challenge && params.get("code_challenge_method") !== "S256") return "only S256 is supported";
    return null;
  }

  function decide(params: URLSearchParams, response: ServerResponse) {
    const problem = checkAuthorizeRequest(params);
    if (problem) return send(response, 400, { error: "invalid_request", error_description: problem });
    const back = new URL(params.get("redirect_uri") ?? "");
    back.searchParams.set("state", params.get("state") ?? "");
    if (params.get("decision") !== "allow") {
      // Each provider's documented answer to a person who cancels.
      back.searchParams.set("error", "access_denied");
      if (kind === "facebook") {
        back.searchParams.set("error_code", "200");
        back.searchParams.set("error_description", "Permissions error");
        back.searchParams.set("error_reason", "user_denied");
      } else if (kind === "github") {
        back.searchParams.set("error_description", "The user has denied your application access.");
      }
    } else {
      const code = randomBytes(kind === "github" ? 10 : 24).toString("hex");
      log.secrets.push(code);
      codes.set(code, {
        redirectUri: params.get("redirect_uri") ?? "",
        codeChallenge: params.get("code_challenge") ?? undefined,
        scopes: grantedScopes(params.get("scope") ?? ""),
        account: structuredClone(account),
      });
      back.searchParams.set("code", code);
    }
    response.writeHead(302, { Location: back.toString() });
    response.end();
  }

  /** The scopes the person grants: all that were asked, but e-mail only where the app may ask for it. */
  function grantedScopes(requested: string) {
    const scopes = requested.split(/[\s,]+/).filter(Boolean);
    const emailScope = { facebook: "email", github: "user:email", twitter: "users.email" }[kind];
    return scopes.filter((scope) => scope !== emailScope || kind === "facebook" || app.emailPermission);
  }

  function exchange(request: IncomingMessage, params: URLSearchParams, response: ServerResponse) {
    const basic = parseBasic(request.headers.authorization);
    const clientId = basic?.id ?? params.get("client_id");
    const clientSecret = basic?.secret ?? params.get("client_secret");
    const code = params.get("code") ?? "";
    const pending = codes.get(code);
    codes.delete(code);
    const verifier = params.get("code_verifier");
    const pkceHolds =
      !pending?.codeChallenge ||
      (verifier && createHash("sha256").update(verifier).digest("base64url") === pending.codeChallenge);
    const refuse = (reason: "client" | "code") => {
      if (kind === "github") {
        // GitHub answers 200 with an error object.
        return send(
          response,
          200,
          reason === "client"
            ? {
                error: "incorrect_client_credentials",
                error_description: "The client_id and/or client_secret passed are incorrect.",
              }
            : {
                error: "bad_verification_code",
                error_description: "The code passed is incorrect or expired.",
              },
        );
      }
      if (kind === "facebook") {
        return send(response, 400, {
          error: {
            message:
              reason === "client"
                ? "Error validating client secret."
                : "This authorization code has been used.",
            type: "OAuthException",
            code: reason === "client" ? 1 : 100,
            fbtrace_id: randomBytes(8).toString("hex"),
          },
        });
      }
      return send(
        response,
        reason === "client" ? 401 : 400,
        reason === "client"
          ? { error: "unauthorized_client", error_description: "Missing valid authorization header" }
          : {
              error: "invalid_request",
              error_description: "Value passed for the authorization code was invalid.",
            },
      );
    };
    // X's confidential clients authenticate with Basic; GitHub and Facebook take the secret in the request.
    if (kind === "twitter" && !basic) return refuse("client");
    if (clientId !== client.clientId || clientSecret !== client.clientSecret) return refuse("client");
    if (kind === "twitter" && params.get("grant_type") !== "authorization_code") return refuse("code");
    if (!pending || pending.redirectUri !== params.get("redirect_uri") || !pkceHolds) return refuse("code");

    const accessToken = `${{ facebook: "EAAB", github: "gho_", twitter: "" }[kind]}${randomBytes(20).toString("hex")}`;
    log.secrets.push(accessToken);
    grants.set(accessToken, { account: pending.account, scopes: pending.scopes });
    if (kind === "github") {
      return send(response, 200, {
        access_token: accessToken,
        token_type: "bearer",
        scope: pending.scopes.join(","),
      });
    }
    if (kind === "facebook") {
      return send(response, 200, { access_token: accessToken, token_type: "bearer", expires_in: 5183944 });
    }
    return send(response, 200, {
      token_type: "bearer",
      expires_in: 7200,
      access_token: accessToken,
      scope: pending.scopes.join(" "),
    });
  }

  const grantOf = (request: IncomingMessage, url: URL) => {
    const header = request.headers.authorization ?? "";
    const token = header.replace(/^(Bearer|token) /i, "") || url.searchParams.get("access_token") || "";
    return grants.get(token);
  };

  function facebookGraph(request: IncomingMessage, url: URL, response: ServerResponse) {
    const graphError = (status: number, message: string, code: number) =>
      send(response, status, { error: { message, type: "OAuthException", code, fbtrace_id: "fake" } });
    if (/^\/v\d+\.\d+\/debug_token$/.test(url.pathname)) {
      if (url.searchParams.get("access_token") !== `${client.clientId}|${client.clientSecret}`) {
        return graphError(400, "Invalid OAuth access token - Cannot parse access token", 190);
      }
      const inspected = grants.get(url.searchParams.get("input_token") ?? "");
      if (!inspected) return send(response, 200, { data: { is_valid: false, error: { code: 190 } } });
      return send(response, 200, {
        data: {
          app_id: client.clientId,
          type: "USER",
          application: "Shop (test)",
          is_valid: true,
          scopes: inspected.scopes,
          user_id: inspected.account.id,
        },
      });
    }
    if (/^(\/v\d+\.\d+)?\/me$/.test(url.pathname)) {
      const grant = grantOf(request, url);
      if (!grant) return graphError(400, "Invalid OAuth access token.", 190);
      const fields = (url.searchParams.get("fields") ?? "id,name").split(",");
      const profile: Record<string, unknown> = {};
      for (const field of fields) {
        if (field === "id") profile.id = grant.account.id;
        if (field === "name") profile.name = grant.account.name;
        if (field === "email" && grant.scopes.includes("email") && grant.account.email) {
          profile.email = grant.account.email;
        }
        if (field === "picture") {
          profile.picture = {
            data: {
              height: 50,
              width: 50,
              is_silhouette: false,
              url: `${base}/picture/${grant.account.id}.jpg`,
            },
          };
        }
      }
      return send(response, 200, profile);
    }
    return graphError(404, "Unknown path components", 2500);
  }

  function githubApi(request: IncomingMessage, url: URL, response: ServerResponse) {
    if (!request.headers["user-agent"]) {
      return send(response, 403, {
        message:
          "Request forbidden by administrative rules. Please make sure your request has a User-Agent header",
      });
    }
    const grant = grantOf(request, url);
    if (!grant) return send(response, 401, { message: "Bad credentials", status: "401" });
    if (url.pathname === "/user") {
      return send(response, 200, {
        login: grant.account.username,
        id: Number(grant.account.id),
        node_id: `U_${grant.account.id}`,
        avatar_url: `${base}/avatars/${grant.account.id}`,
        type: "User",
        name: grant.account.name,
        email: grant.account.email ?? null,
      });
    }
    if (url.pathname === "/user/emails") {
      if (!grant.scopes.includes("user:email") && !grant.scopes.includes("user")) {
        return send(response, 403, { message: "Resource not accessible by integration", status: "403" });
      }
      return send(response, 200, grant.account.emails ?? []);
    }
    return send(response, 404, { message: "Not Found", status: "404" });
  }

  function twitterApi(request: IncomingMessage, url: URL, response: ServerResponse) {
    const grant = grantOf(request, url);
    if (!grant || url.searchParams.has("access_token")) {
      return send(response, 401, {
        title: "Unauthorized",
        type: "about:blank",
        status: 401,
        detail: "Unauthorized",
      });
    }
    if (url.pathname !== "/2/users/me") return send(response, 404, { title: "Not Found Error", status: 404 });
    if (!grant.scopes.includes("users.read") || !grant.scopes.includes("tweet.read")) {
      return send(response, 403, { title: "Forbidden", status: 403, detail: "Missing scopes" });
    }
    const fields = (url.searchParams.get("user.fields") ?? "").split(",");
    const data: Record<string, unknown> = {
      id: grant.account.id,
      name: grant.account.name,
      username: grant.account.username,
    };
    if (fields.includes("profile_image_url"))
      data.profile_image_url = `${base}/profile_images/${grant.account.id}_normal.jpg`;
    if (fields.includes("confirmed_email") && grant.scopes.includes("users.email") && grant.account.email) {
      data.confirmed_email = grant.account.email;
    }
    return send(response, 200, { data });
  }

  return {
    kind,
    base,
    log,
    app,
    /** Env that points the shop at this fake. */
    env(): Record<string, string> {
      const prefix = kind.toUpperCase();
      const [web, api] = {
        facebook: ["FACEBOOK_WEB_BASE", "FACEBOOK_GRAPH_BASE"],
        github: ["GITHUB_WEB_BASE", "GITHUB_API_BASE"],
        twitter: ["TWITTER_WEB_BASE", "TWITTER_API_BASE"],
      }[kind];
      return {
        [`${prefix}_CLIENT_ID`]: client.clientId,
        [`${prefix}_CLIENT_SECRET`]: client.clientSecret,
        [`${web}`]: base,
        [`${api}`]: base,
      };
    },
    /** The account the next approval at this provider is for. */
    signInAs(next: Partial<FakeProviderAccount>) {
      account = { ...defaultAccount(kind), ...next };
    },
    /** Makes the token or profile endpoints fail until `restore()`. */
    breakEndpoint(endpoint: "token" | "profile", outage: Outage) {
      outages[endpoint] = outage;
    },
    restore() {
      delete outages.token;
      delete outages.profile;
      app.emailPermission = true;
    },
    /** What a browser does at the authorize page: the person allows or cancels; returns where they are sent. */
    async decide(authorizeUrl: string, decision: "allow" | "deny") {
      const page = await fetch(authorizeUrl);
      if (page.status !== 200)
        throw new Error(`authorize page answered ${page.status}: ${await page.text()}`);
      const form = new URLSearchParams(new URL(authorizeUrl).searchParams);
      form.set("decision", decision);
      const answer = await fetch(authorizeUrl.split("?")[0] ?? "", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: form.toString(),
        redirect: "manual",
      });
      return new URL(answer.headers.get("location") ?? "");
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeProvider = Awaited<ReturnType<typeof startFakeProvider>>;

function defaultAccount(kind: FakeProviderKind): FakeProviderAccount {
  return { id: kind === "github" ? "583231" : "10229384756", name: "Test Shopper", username: "testshopper" };
}

function parseBasic(header: string | undefined) {
  if (!header?.startsWith("Basic ")) return null;
  const [id, secret] = Buffer.from(header.slice(6), "base64").toString().split(":");
  return { id: decodeURIComponent(id ?? ""), secret: decodeURIComponent(secret ?? "") };
}

/**
 * The three providers' fakes, started together with the given client credentials: each by its kind, the
 * shop's environment naming all three, and how to close them.
 */
export async function startFakeProviders(
  clients: Record<FakeProviderKind, { clientId: string; clientSecret: string }>,
) {
  const [facebook, github, twitter] = await Promise.all([
    startFakeProvider("facebook", clients.facebook),
    startFakeProvider("github", clients.github),
    startFakeProvider("twitter", clients.twitter),
  ]);
  const fakes: Record<FakeProviderKind, FakeProvider> = { facebook, github, twitter };
  return {
    fakes,
    env: { ...facebook.env(), ...github.env(), ...twitter.env() },
    close: () => Promise.all(Object.values(fakes).map((fake) => fake.close())),
  };
}
