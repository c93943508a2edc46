import { type ActionFunctionArgs, type LoaderFunctionArgs, useActionData, useLoaderData } from "react-router";
import { safeRedirectTarget, withRedirect } from "../../common/redirect-target.ts";
import { Notice } from "../components/notice.tsx";
import { AuthCard, AuthForm, EmailField, NextStepLink, OtherWay } from "../features/auth/auth-card.tsx";
import { authClient } from "../lib/auth-client.ts";
import { attemptAuth, redirectErrorMessage } from "../lib/auth-errors.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

/** Requesting a one-time sign-in link; the link's failures (expired, used) come back here with ?error=. */
export function loader({ request }: LoaderFunctionArgs) {
  return readQuery(request);
}

function readQuery(request: Request) {
  const query = new URL(request.url).searchParams;
  const admin = query.get("mode") === "admin";
  return {
    admin,
    redirectTo: safeRedirectTarget(query.get("redirectTo"), admin ? "/admin" : "/"),
    error: query.get("error"),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const email = String((await request.formData()).get("email") ?? "").trim();
  const { admin, redirectTo } = readQuery(request);
  const signInPage = withRedirect(admin ? "/admin/login" : "/login", redirectTo);
  const errorPage = new URL(request.url);
  errorPage.searchParams.delete("error");
  const result = await attemptAuth((fetchOptions) =>
    authClient.signIn.magicLink(
      {
        email,
        callbackURL: signInPage,
        newUserCallbackURL: signInPage,
        errorCallbackURL: errorPage.pathname + errorPage.search,
      },
      fetchOptions,
    ),
  );
  return result.ok ? { sentTo: email } : { error: result.message, email };
}

export function Component() {
  const { admin, redirectTo, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const signInPage = withRedirect(admin ? "/admin/login" : "/login", redirectTo);

  if (result && "sentTo" in result) {
    return (
      <AuthCard title="Check your inbox">
        <Notice tone="success">
          We have sent a sign-in link to <strong>{result.sentTo}</strong>.
        </Notice>
        <p className="text-stone-600 dark:text-stone-300">
          Open it on this device. It works once, for the next 10 minutes. Nothing after a few minutes? Check
          your spam folder, or ask for another link.
        </p>
        <NextStepLink to={signInPage}>Back to sign in</NextStepLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Sign in with an e-mail link"
      intro="No password needed: we e-mail you a link that signs you in. New here? The link creates your account."
    >
      {result && "error" in result && <Notice tone="error">{result.error}</Notice>}
      {!result && redirectErrorMessage(error) && <Notice tone="error">{redirectErrorMessage(error)}</Notice>}
      <AuthForm submit="E-mail me a link" pendingLabel="Sending…">
        <EmailField
          // The page's one field: a shopper sent here from a provider that gave no address types at once.
          autoFocus
          defaultValue={result && "email" in result ? result.email : undefined}
        />
      </AuthForm>
      <OtherWay question="Prefer your password?" to={signInPage}>
        Sign in with it
      </OtherWay>
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Sign in with an e-mail link") };
