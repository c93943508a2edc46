import { Link, redirect, useActionData, useLoaderData } from "react-router";
import { isStaffRole, type SessionUser, type SocialProviderInfo } from "../../../common/account.ts";
import { safeRedirectTarget, withRedirect } from "../../../common/redirect-target.ts";
import { buttonClass } from "../../components/button.tsx";
import { TextField } from "../../components/field.tsx";
import { Divider, Notice } from "../../components/notice.tsx";
import { api } from "../../lib/api.ts";
import { authClient } from "../../lib/auth-client.ts";
import { attemptAuth, NO_ADMIN_ACCESS, redirectErrorMessage } from "../../lib/auth-errors.ts";
import { fetchSessionUser } from "../../lib/session-user.ts";
import { AuthCard, AuthForm, EmailField, OtherWay } from "./auth-card.tsx";
import { showSignedInToast } from "./signed-in-toast.ts";
import { SocialButtons } from "./social-buttons.tsx";

export type SignInMode = "shop" | "admin";

const PAGE: Record<SignInMode, string> = { shop: "/login", admin: "/admin/login" };
const DEFAULT_TARGET: Record<SignInMode, string> = { shop: "/", admin: "/admin" };

/**
 * Where a signed-in visitor goes on to: where they were heading, or, sent nowhere in particular (a sign-up's
 * confirmation link, the shop's own Login), the admin home for the owner and staff, who sign in to run the shop.
 */
function landingFor(url: URL, mode: SignInMode, role: string | null | undefined) {
  const asked = url.searchParams.get("redirectTo");
  if (!asked && role && isStaffRole(role)) return DEFAULT_TARGET.admin;
  return safeRedirectTarget(asked, DEFAULT_TARGET[mode]);
}

type LoaderData = {
  mode: SignInMode;
  providers: SocialProviderInfo[];
  /** Sign-in with a mobile number is offered (an SMS provider is configured, or in development). */
  mobile: boolean;
  redirectTo: string;
  error: string | null;
  /** The provider a failed provider sign-in came back from, when it is one of the configured ones. */
  providerName: string | null;
  providerId: string | null;
  notice: string | null;
  signedInAs: SessionUser | null;
};

/** Messages other pages leave for this one (?notice=), by code so no text can be put in a link. */
const NOTICES: Record<string, string> = {
  "account-deleted": "Your account has been deleted. Thank you for shopping with us.",
};

/**
 * Every sign-in method comes back to this page (e-mail confirmation, e-mail link, providers): a visitor
 * who is now signed in goes on to where they were heading, a failure shows its message here.
 */
export async function loadSignInPage(request: Request, mode: SignInMode): Promise<LoaderData> {
  const url = new URL(request.url);
  const redirectTo = safeRedirectTarget(url.searchParams.get("redirectTo"), DEFAULT_TARGET[mode]);
  const error = url.searchParams.get("error");
  const [user, { providers, mobile }] = await Promise.all([
    fetchSessionUser(),
    api<{ providers: SocialProviderInfo[]; mobile: boolean }>("/account/providers"),
  ]);
  if (user && !error && (mode === "shop" || isStaffRole(user.role))) {
    // A confirmation link, an e-mail link or a provider lands here signed in and goes straight on: without a
    // word the shopper cannot tell it worked. The toast outlives the redirect (it lives in the layout).
    if (typeof window !== "undefined") showSignedInToast(user.email);
    throw redirect(landingFor(url, mode, user.role));
  }
  const notice = NOTICES[url.searchParams.get("notice") ?? ""] ?? null;
  const provider = providers.find(({ id }) => id === url.searchParams.get("provider"));
  return {
    mode,
    providers,
    mobile,
    redirectTo,
    error,
    providerName: provider?.name ?? null,
    providerId: provider?.id ?? null,
    notice,
    signedInAs: user,
  };
}

type ActionData = { error: string; email: string; code?: string };

export async function signInWithPassword(request: Request, mode: SignInMode) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const url = new URL(request.url);
  const redirectTo = safeRedirectTarget(url.searchParams.get("redirectTo"), DEFAULT_TARGET[mode]);
  const result = await attemptAuth((fetchOptions) =>
    authClient.signIn.email(
      // The confirmation link an unconfirmed account is sent comes back here, then goes on.
      { email, password, callbackURL: withRedirect(PAGE[mode], redirectTo) },
      fetchOptions,
    ),
  );
  if (!result.ok) return { error: result.message, email, code: result.code } satisfies ActionData;
  if (mode === "admin" && !isStaffRole(result.data.user.role)) {
    return { error: NO_ADMIN_ACCESS, email, code: "forbidden" } satisfies ActionData;
  }
  return redirect(landingFor(url, mode, result.data.user.role));
}

const primaryLink = buttonClass({ size: "lg", block: true });

/** A provider that gave no address, or one the shop cannot trust: the e-mail link proves the address. */
const PROVIDER_FAILURES_FOR_A_LINK = new Set(["email_not_found", "email_not_verified", "account_not_linked"]);

function emailLinkPage(mode: SignInMode, redirectTo: string) {
  const query = new URLSearchParams();
  if (redirectTo !== "/") query.set("redirectTo", redirectTo);
  if (mode === "admin") query.set("mode", "admin");
  const text = query.toString();
  return text ? `/login/email-link?${text}` : "/login/email-link";
}

export function SignInPage() {
  const { mode, providers, mobile, redirectTo, error, providerName, providerId, notice, signedInAs } =
    useLoaderData() as LoaderData;
  const action = useActionData() as ActionData | undefined;
  const here = withRedirect(PAGE[mode], redirectTo);
  const admin = mode === "admin";
  // After an attempt by a customer, the page reloads with them signed in: one message covers both.
  const noAdminAccess = admin && signedInAs && !isStaffRole(signedInAs.role);
  const failure = action && action.code !== "forbidden" ? action.error : null;
  // Sent here by checkout: say why, and that an account is not needed to order.
  const fromCheckout = !admin && new URL(redirectTo, "http://shop").pathname === "/checkout";

  return (
    <AuthCard
      title={admin ? "Admin sign-in" : fromCheckout ? "Sign in or check out as a guest" : "Sign in"}
      intro={
        admin
          ? "This is the sign-in for the shop's staff. Use an account that has admin access."
          : fromCheckout
            ? "No account needed to order: check out as a guest with your e-mail and mobile. Or sign in to use your saved addresses and see the order in My Orders."
            : "Welcome back. Sign in to see your orders and keep your cart on every device."
      }
    >
      {fromCheckout && (
        <Link to="/checkout?as=guest" className={primaryLink}>
          Check out as a guest
        </Link>
      )}
      {fromCheckout && <Divider label="or sign in" />}
      {notice && <Notice tone="success">{notice}</Notice>}
      {noAdminAccess && (
        <Notice tone="error">
          {NO_ADMIN_ACCESS} You are signed in as {signedInAs.email}. Sign in with an admin account below, or{" "}
          <Link to="/" className="underline">
            go back to the shop
          </Link>
          .
        </Notice>
      )}
      {!action && !noAdminAccess && error && (
        <Notice tone="error">
          <p>{redirectErrorMessage(error, providerName ?? undefined, providerId)}</p>
          {PROVIDER_FAILURES_FOR_A_LINK.has(error) && (
            <Link
              to={emailLinkPage(mode, redirectTo)}
              className="mt-3 inline-block rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 dark:bg-red-200 dark:text-red-950 dark:hover:bg-red-100"
            >
              E-mail me a sign-in link
            </Link>
          )}
        </Notice>
      )}
      {failure && <Notice tone="error">{failure}</Notice>}

      <AuthForm submit="Sign in" pendingLabel="Signing in…">
        <EmailField defaultValue={action?.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={128}
        />
        <div className="flex justify-end">
          <Link
            to={withRedirect("/forgot-password", redirectTo)}
            className={`text-sm ${buttonClass({ variant: "link" })}`}
          >
            Forgot your password?
          </Link>
        </div>
      </AuthForm>

      <Divider label="or" />
      <div className="space-y-3">
        <WayInLink to={emailLinkPage(mode, redirectTo)} icon="M3 6h18v12H3zM3 6l9 7 9-7">
          E-mail me a sign-in link
        </WayInLink>
        {mobile && !admin && (
          <WayInLink to={withRedirect("/login/mobile", redirectTo)} icon="M7 2h10v20H7zM11 18h2">
            Sign in with mobile
          </WayInLink>
        )}
        <SocialButtons providers={providers} returnTo={here} errorTo={here} />
      </div>

      {!admin && (
        <OtherWay question="New here?" to={withRedirect("/signup", redirectTo)}>
          Create an account
        </OtherWay>
      )}
    </AuthCard>
  );
}

/** A way in without the password, as a wide button with its outline icon (`icon`: the path's drawing). */
function WayInLink({ to, icon, children }: { to: string; icon: string; children: string }) {
  return (
    <Link to={to} className={buttonClass({ variant: "secondary", size: "lg", block: true })}>
      <svg
        viewBox="0 0 24 24"
        width="20"
        height="20"
        aria-hidden="true"
        className="text-brand-700 dark:text-brand-100"
      >
        <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" d={icon} />
      </svg>
      {children}
    </Link>
  );
}
