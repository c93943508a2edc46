import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import { buttonClass } from "../components/button.tsx";
import { Notice } from "../components/notice.tsx";
import { AuthCard, NextStepLink } from "../features/auth/auth-card.tsx";
import { redirectErrorMessage } from "../lib/auth-errors.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

/**
 * Where the link in the e-mail opens. Signing in takes a click here rather than happening on the way in:
 * mail scanners that open every link would otherwise use up the one-time link before the shopper does.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { hasToken: url.searchParams.has("token"), search: url.search };
}

export function Component() {
  const { hasToken, search } = useLoaderData<typeof loader>();
  if (!hasToken) {
    return (
      <AuthCard title="Sign in with an e-mail link">
        <Notice tone="error">{redirectErrorMessage("INVALID_TOKEN")}</Notice>
        <NextStepLink to="/login/email-link">Send me a new link</NextStepLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Finish signing in" intro="One more click and you are signed in on this device.">
      {/* A full page load: the verify endpoint sets the session cookie and redirects onwards. */}
      <a href={`/api/auth/magic-link/verify${search}`} className={buttonClass({ size: "lg", block: true })}>
        Sign me in
      </a>
      <p className="text-sm text-stone-600 dark:text-stone-300">
        Did not ask for this link? Close this page; nothing happens unless you click.
      </p>
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Signing you in") };
