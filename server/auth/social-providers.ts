import { APIError, getOAuthState } from "better-auth/api";
import type { OAuth2Tokens } from "better-auth/oauth2";
import type { GenericOAuthConfig } from "better-auth/plugins";
import type { Env } from "../env.ts";

/**
 * Every social provider of the shop, as Better Auth `genericOAuth` configurations (docs/decisions/006 and 021).
 * Better Auth's built-in Facebook, GitHub and Twitter providers have the providers' addresses written into
 * them, invent an address for an X account without one, and trust a GitHub address whatever its flags; these
 * talk to the endpoints each provider documents, at base URLs read from the environment (tests point them at
 * local fakes, production keeps the defaults), and never give Better Auth an address the provider has not
 * verified, or a made-up one. Without an address, Better Auth creates nothing and sends the shopper back to
 * `/login?error=email_not_found`.
 */
export function socialProviderConfigs(env: Env): GenericOAuthConfig[] {
  const configs: GenericOAuthConfig[] = [];
  if (env.GOOGLE_CLIENT_ID) configs.push(google(env));
  if (env.FACEBOOK_CLIENT_ID) configs.push(facebook(env));
  if (env.GITHUB_CLIENT_ID) configs.push(github(env));
  if (env.TWITTER_CLIENT_ID) configs.push(twitter(env));
  return configs;
}

/** Graph API version of every Facebook address, as Better Auth's own provider uses. */
export const FACEBOOK_GRAPH_VERSION = "v24.0";
/** A provider that does not answer within this long is treated as down. */
const PROVIDER_TIMEOUT_MS = 10_000;

// Google through OpenID Connect discovery: the same code path as a built-in provider, with GOOGLE_ISSUER
// overridable so tests run the whole redirect flow against a local server.
function google(env: Env): GenericOAuthConfig {
  return {
    providerId: "google",
    name: "Google",
    discoveryUrl: new URL("/.well-known/openid-configuration", env.GOOGLE_ISSUER).toString(),
    clientId: env.GOOGLE_CLIENT_ID ?? "",
    clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
    scopes: ["openid", "email", "profile"],
    pkce: true,
    requireIdTokenVerification: true,
  };
}

/**
 * Facebook Login (manual flow): the dialog, the code exchanged at the Graph API, the token checked with
 * `debug_token` to belong to this app, then `/me?fields=id,name,email,picture`. Facebook leaves `email` out
 * for an account made with a phone number and says nowhere that an address is confirmed, so its address
 * never links to an existing account by itself.
 */
function facebook(env: Env): GenericOAuthConfig {
  const clientId = env.FACEBOOK_CLIENT_ID ?? "";
  const clientSecret = env.FACEBOOK_CLIENT_SECRET ?? "";
  const graph = (path: string) => `${trim(env.FACEBOOK_GRAPH_BASE)}/${FACEBOOK_GRAPH_VERSION}${path}`;
  return {
    providerId: "facebook",
    name: "Facebook",
    authorizationUrl: `${trim(env.FACEBOOK_WEB_BASE)}/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`,
    clientId,
    clientSecret,
    scopes: ["email", "public_profile"],
    // Facebook refuses a code_verifier when the dialog had no challenge; Better Auth's provider sends neither.
    pkce: false,
    getToken: ({ code, redirectURI }) =>
      exchangeCode("Facebook", graph("/oauth/access_token"), {
        body: { client_id: clientId, client_secret: clientSecret, redirect_uri: redirectURI, code },
      }),
    async getUserInfo(tokens) {
      const accessToken = tokens.accessToken;
      if (!accessToken) return null;
      // A user token of another Facebook app also opens /me: only one issued to this app proves who signs in.
      const inspected = await getJson<{ data?: { is_valid?: boolean; app_id?: string; user_id?: string } }>(
        `${graph("/debug_token")}?${new URLSearchParams({
          input_token: accessToken,
          access_token: `${clientId}|${clientSecret}`,
        })}`,
      );
      const check = inspected?.data;
      if (!check?.is_valid || check.app_id !== clientId || !check.user_id) return null;
      const profile = await getJson<FacebookProfile>(`${graph("/me")}?fields=id,name,email,picture`, {
        Authorization: `Bearer ${accessToken}`,
      });
      if (!profile?.id || profile.id !== check.user_id) return null;
      return {
        id: profile.id,
        name: profile.name,
        email: profile.email || undefined,
        emailVerified: await vouchedFor(false),
        image: profile.picture?.data?.url,
      };
    },
  };
}

type FacebookProfile = {
  id: string;
  name?: string;
  email?: string;
  picture?: { data?: { url?: string } };
};

/**
 * A GitHub OAuth App. `/user` has `email: null` when the address is private (or for a GitHub App); the
 * addresses and their `primary` and `verified` flags are on `/user/emails`. Only a verified address that
 * can receive mail is used: the primary one, else the first other verified one; none means no address.
 */
function github(env: Env): GenericOAuthConfig {
  const clientId = env.GITHUB_CLIENT_ID ?? "";
  const clientSecret = env.GITHUB_CLIENT_SECRET ?? "";
  const api = (path: string) => `${trim(env.GITHUB_API_BASE)}${path}`;
  return {
    providerId: "github",
    name: "GitHub",
    authorizationUrl: `${trim(env.GITHUB_WEB_BASE)}/login/oauth/authorize`,
    clientId,
    clientSecret,
    scopes: ["read:user", "user:email"],
    pkce: true,
    // GitHub answers a refused code with 200 and {"error": "bad_verification_code"}, which a generic
    // exchange would read as a response without a token.
    getToken: ({ code, redirectURI, codeVerifier }) =>
      exchangeCode("GitHub", `${trim(env.GITHUB_WEB_BASE)}/login/oauth/access_token`, {
        body: {
          client_id: clientId,
          client_secret: clientSecret,
          code,
          redirect_uri: redirectURI,
          ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
        },
      }),
    async getUserInfo(tokens) {
      if (!tokens.accessToken) return null;
      const headers = {
        Authorization: `Bearer ${tokens.accessToken}`,
        Accept: "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        // GitHub refuses API requests without one.
        "User-Agent": env.SHOP_NAME,
      };
      const profile = await getJson<GitHubUser>(api("/user"), headers);
      if (!profile?.id) return null;
      // Missing for a token without user:email or a GitHub App without the e-mail permission: no address.
      const emails = (await getJson<GitHubEmail[]>(api("/user/emails"), headers)) ?? [];
      const usable = Array.isArray(emails)
        ? emails.filter((entry) => entry.verified === true && isRealGitHubAddress(entry.email))
        : [];
      const chosen = usable.find((entry) => entry.primary) ?? usable[0];
      // An address GitHub lists but has not verified is a different problem from none at all: the shopper can
      // fix it at GitHub in a minute, so say that rather than "did not share an address".
      if (!chosen && Array.isArray(emails) && emails.some((entry) => isRealGitHubAddress(entry.email)))
        await sendBackWithError("email_not_verified", env.PUBLIC_URL);
      return {
        id: String(profile.id),
        name: profile.name || profile.login,
        email: chosen?.email,
        emailVerified: await vouchedFor(Boolean(chosen)),
        image: profile.avatar_url,
      };
    },
  };
}

const isRealGitHubAddress = (email: string) => !email.endsWith("@users.noreply.github.com");

/**
 * Ends the provider callback with a redirect to the page the flow named for errors (`?error=<code>`), as
 * Better Auth's own failures do. getUserInfo has no request context, but a thrown redirect is answered as one.
 */
async function sendBackWithError(code: string, publicUrl: string): Promise<never> {
  const state = await getOAuthState().catch(() => null);
  const target = new URL(state?.errorURL ?? "/login", publicUrl);
  target.searchParams.set("error", code);
  throw new APIError("FOUND", undefined, { Location: target.toString() });
}

type GitHubUser = {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  avatar_url?: string;
};
type GitHubEmail = { email: string; primary: boolean; verified: boolean; visibility: string | null };

/**
 * X (Twitter) OAuth 2.0 with PKCE, a confidential client (Basic authentication at the token endpoint).
 * X gives an address only as `confirmed_email`, and only when the app has "Request email from users" and
 * the `users.email` scope; a confirmed address is verified by definition.
 */
function twitter(env: Env): GenericOAuthConfig {
  const clientId = env.TWITTER_CLIENT_ID ?? "";
  const clientSecret = env.TWITTER_CLIENT_SECRET ?? "";
  const api = (path: string) => `${trim(env.TWITTER_API_BASE)}${path}`;
  return {
    providerId: "twitter",
    name: "X (Twitter)",
    authorizationUrl: `${trim(env.TWITTER_WEB_BASE)}/i/oauth2/authorize`,
    clientId,
    clientSecret,
    // tweet.read is required by GET /2/users/me alongside users.read.
    scopes: ["users.read", "tweet.read", "users.email"],
    pkce: true,
    getToken: ({ code, redirectURI, codeVerifier }) =>
      exchangeCode("X", api("/2/oauth2/token"), {
        body: {
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectURI,
          code_verifier: codeVerifier ?? "",
        },
        basic: { clientId, clientSecret },
      }),
    async getUserInfo(tokens) {
      if (!tokens.accessToken) return null;
      const headers = { Authorization: `Bearer ${tokens.accessToken}` };
      const profile = await getJson<{ data?: TwitterUser }>(
        `${api("/2/users/me")}?user.fields=profile_image_url`,
        headers,
      );
      if (!profile?.data?.id) return null;
      // Asked on its own: without the permission X may refuse the field, which must not refuse the sign-in.
      const withEmail = await getJson<{ data?: TwitterUser }>(
        `${api("/2/users/me")}?user.fields=confirmed_email`,
        headers,
      );
      const email = withEmail?.data?.id === profile.data.id ? withEmail.data.confirmed_email : undefined;
      return {
        id: profile.data.id,
        name: profile.data.name,
        email: email || undefined,
        emailVerified: await vouchedFor(Boolean(email)),
        image: profile.data.profile_image_url,
      };
    },
  };
}

type TwitterUser = {
  id: string;
  name?: string;
  username?: string;
  profile_image_url?: string;
  confirmed_email?: string;
};

/**
 * Whether Better Auth may treat the provider's address as the shopper's. Connecting a provider from
 * Settings happens signed in, after the shopper proved the account is theirs: there the address vouches for
 * nothing, and Better Auth's rule that a link needs a verified address would keep Facebook (which never says)
 * from being connected at all. A sign-in (no link in the flow's state) keeps the provider's own word.
 */
async function vouchedFor(verifiedByProvider: boolean): Promise<boolean> {
  if (verifiedByProvider) return true;
  const state = await getOAuthState().catch(() => null);
  return Boolean(state?.link);
}

/**
 * Exchanges an authorization code at a provider's token endpoint (form-encoded, JSON back). Anything but a
 * response with an access token throws, and Better Auth sends the shopper back with `invalid_code`; the error
 * names the provider's error code, never the code or a token, because Better Auth logs it.
 */
async function exchangeCode(
  provider: string,
  url: string,
  request: { body: Record<string, string>; basic?: { clientId: string; clientSecret: string } },
): Promise<OAuth2Tokens> {
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    Accept: "application/json",
  };
  if (request.basic) {
    const { clientId, clientSecret } = request.basic;
    headers.Authorization = `Basic ${Buffer.from(
      `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`,
    ).toString("base64")}`;
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: new URLSearchParams(request.body),
      redirect: "error",
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`${provider} token endpoint unreachable (${(error as Error).name})`);
  }
  const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const accessToken = typeof data?.access_token === "string" ? data.access_token : undefined;
  if (!response.ok || !accessToken) {
    const reason = data && typeof data.error === "string" ? data.error : `HTTP ${response.status}`;
    throw new Error(`${provider} refused the code exchange (${reason})`);
  }
  const expiresIn = Number(data?.expires_in);
  const scope = typeof data?.scope === "string" ? data.scope : "";
  return {
    tokenType: typeof data?.token_type === "string" ? data.token_type : "bearer",
    accessToken,
    refreshToken: typeof data?.refresh_token === "string" ? data.refresh_token : undefined,
    accessTokenExpiresAt: expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : undefined,
    scopes: scope.split(/[\s,]+/).filter(Boolean),
  };
}

/** A provider's JSON, or null when it is down, slow, refuses or answers something else. */
async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T | null> {
  try {
    const response = await fetch(url, {
      headers: { Accept: "application/json", ...headers },
      redirect: "error",
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    return (await response.json()) as T;
  } catch {
    return null;
  }
}

const trim = (base: string) => base.replace(/\/+$/, "");
