import { type ActionFunctionArgs, type LoaderFunctionArgs, useActionData, useLoaderData } from "react-router";
import { Notice } from "../components/notice.tsx";
import { AuthCard, AuthForm, NewPasswordPair, NextStepLink } from "../features/auth/auth-card.tsx";
import { authClient } from "../lib/auth-client.ts";
import { attemptAuth, redirectErrorMessage } from "../lib/auth-errors.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

/** The link in the reset e-mail lands here with ?token=, or with ?error= when it has expired or was used. */
export function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  return { token: query.get("token"), error: query.get("error") };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const newPassword = String(form.get("password") ?? "");
  if (newPassword !== String(form.get("confirm") ?? "")) {
    return { error: "The two passwords are not the same. Please type them again.", field: "confirm" };
  }
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await attemptAuth((fetchOptions) =>
    authClient.resetPassword({ newPassword, token }, fetchOptions),
  );
  return result.ok
    ? { done: true }
    : { error: result.message, field: result.code === "INVALID_TOKEN" ? "token" : "password" };
}

export function Component() {
  const { token, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();

  if (result && "done" in result) {
    return (
      <AuthCard title="Your password is changed">
        <Notice tone="success">
          You can now sign in with your new password. Every other session has been signed out.
        </Notice>
        <NextStepLink to="/login">Sign in</NextStepLink>
      </AuthCard>
    );
  }

  const linkProblem = error || !token ? redirectErrorMessage(error ?? "INVALID_TOKEN") : null;
  const failed = result && "error" in result ? result : undefined;
  if (linkProblem || failed?.field === "token") {
    return (
      <AuthCard title="Choose a new password">
        <Notice tone="error">{failed?.field === "token" ? failed.error : linkProblem}</Notice>
        <NextStepLink to="/forgot-password">Send me a new link</NextStepLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      intro="Choosing a new password signs you out on every other device."
    >
      {failed && <Notice tone="error">{failed.error}</Notice>}
      <AuthForm submit="Save new password" pendingLabel="Saving…">
        <NewPasswordPair names={["password", "confirm"]} className="space-y-4" />
      </AuthForm>
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Choose a new password") };
