import type { ReactNode } from "react";
import {
  type ActionFunctionArgs,
  Link,
  type LoaderFunctionArgs,
  redirect,
  useFetcher,
  useLoaderData,
} from "react-router";
import type { AccountSession, SocialProviderInfo } from "../../common/account.ts";
import type { AccountMarketingConsent } from "../../common/cart-reminders.ts";
import { formatDateTime } from "../../common/india-time.ts";
import { accountLabel, isMobileAccountEmail } from "../../common/mobile-account.ts";
import { Button } from "../components/button.tsx";
import { TextField } from "../components/field.tsx";
import { Notice } from "../components/notice.tsx";
import { NewPasswordPair } from "../features/auth/auth-card.tsx";
import { DeleteAccount } from "../features/settings/delete-account.tsx";
import { describeDevice } from "../features/settings/describe-device.ts";
import { MarketingConsentChoice } from "../features/settings/marketing-consent.tsx";
import { MobileNumber, mobileNumberAction } from "../features/settings/mobile-number.tsx";
import {
  disconnectProvider,
  type LinkedAccount,
  SignInMethods,
} from "../features/settings/sign-in-methods.tsx";
import { ThemePreference } from "../features/settings/theme-preference.tsx";
import { WhatsAppConsentSwitch } from "../features/settings/whatsapp-consent.tsx";
import { api, isApiError } from "../lib/api.ts";
import { authClient } from "../lib/auth-client.ts";
import { attemptAuth, redirectErrorMessage } from "../lib/auth-errors.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireSessionUser } from "../lib/session.ts";

const PROVIDER_NAMES: Record<string, string> = {
  google: "Google",
  facebook: "Facebook",
  github: "GitHub",
  twitter: "X (Twitter)",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireSessionUser(request);
  const [{ sessions }, linked, { providers, mobile }, session, consent] = await Promise.all([
    api<{ sessions: AccountSession[] }>("/account/sessions"),
    api<LinkedAccount[]>("/auth/list-accounts"),
    api<{ providers: SocialProviderInfo[]; mobile: boolean }>("/account/providers"),
    api<{ user: { phoneNumber?: string | null } } | null>("/auth/get-session"),
    api<AccountMarketingConsent>("/marketing-consent"),
  ]);
  const hasPassword = linked.some((account) => account.providerId === "credential");
  const methods = linked.map((account) => account.providerId).filter((method) => method !== "credential");
  return {
    user,
    sessions,
    hasPassword,
    methods,
    linked: linked.map(({ id, providerId }) => ({ id, providerId })),
    providers,
    mobile,
    phoneNumber: session?.user.phoneNumber ?? null,
    consent,
    methodsNotice: connectNotice(new URL(request.url).searchParams, providers),
  };
}

/** A provider sends the shopper back to Settings after connecting: say whether it worked. */
function connectNotice(query: URLSearchParams, providers: SocialProviderInfo[]) {
  const named = (id: string | null) => providers.find((provider) => provider.id === id)?.name;
  const connected = named(query.get("connected"));
  if (connected)
    return { tone: "success" as const, message: `${connected} is connected: you can sign in with it.` };
  const message = redirectErrorMessage(
    query.get("error"),
    named(query.get("provider")),
    query.get("provider"),
  );
  return message ? { tone: "error" as const, message } : null;
}

export type SettingsResult = { intent: string; ok: boolean; message: string };

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent"));
  if (intent === "mobile-send" || intent === "mobile-verify") return mobileNumberAction(form);
  return settingsAction(form, intent);
}

async function settingsAction(form: FormData, intent: string): Promise<SettingsResult | Response> {
  const field = (name: string) => String(form.get(name) ?? "");
  const done = (message: string) => ({ intent, ok: true, message });
  const failed = (message: string) => ({ intent, ok: false, message });

  if (intent === "name") {
    const name = field("name").trim();
    if (!name) return failed("Please enter your name.");
    const result = await attemptAuth((options) => authClient.updateUser({ name }, options));
    return result.ok ? done("Your name is saved.") : failed(result.message);
  }
  if (intent === "password") {
    if (field("newPassword") !== field("confirmPassword")) {
      return failed("The two new passwords are not the same. Please type them again.");
    }
    const result = await attemptAuth((options) =>
      authClient.changePassword(
        {
          currentPassword: field("currentPassword"),
          newPassword: field("newPassword"),
          revokeOtherSessions: true,
        },
        options,
      ),
    );
    return result.ok
      ? done("Your password is changed. Every other session has been signed out.")
      : failed(result.message);
  }
  if (intent === "end-session") {
    try {
      await api(`/account/sessions/${encodeURIComponent(field("id"))}`, { method: "DELETE" });
    } catch (error) {
      if (!isApiError(error) || error.status !== 404)
        return failed("That session could not be signed out. Please try again.");
    }
    if (field("current") === "true") {
      authClient.$store.notify("$sessionSignal");
      return redirect("/login");
    }
    return done("That session is signed out.");
  }
  if (intent === "disconnect") return disconnectProvider(form);
  if (intent === "delete") {
    const password = field("password");
    const result = await attemptAuth((options) =>
      authClient.deleteUser(password ? { password } : {}, options),
    );
    return result.ok ? redirect("/login?notice=account-deleted") : failed(result.message);
  }
  return failed("Something went wrong. Please try again.");
}

export function Component() {
  const {
    user,
    sessions,
    hasPassword,
    methods,
    linked,
    providers,
    mobile,
    phoneNumber,
    methodsNotice,
    consent,
  } = useLoaderData<typeof loader>();
  // An account made with a mobile number has no real e-mail address (common/mobile-account.ts): nothing here
  // may send it to e-mail links or "Forgot your password?", which need one.
  const mobileAccount = isMobileAccountEmail(user.email);
  return (
    <div className="mx-auto max-w-3xl space-y-6 py-2 sm:py-6">
      <header>
        <h1 className="font-serif text-3xl font-semibold">Settings</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-300">
          Signed in as <strong className="break-all">{accountLabel(user.email)}</strong>
        </p>
      </header>

      <Section title="Your name" id="name">
        <NameForm name={mobileAccount && isOnlyANumber(user.name) ? "" : user.name} />
      </Section>

      <Section title="Password" id="password">
        {hasPassword ? (
          <PasswordForm />
        ) : mobileAccount ? (
          <p className="text-stone-700 dark:text-stone-300">
            You sign in with a code we send by SMS to <strong>{accountLabel(user.email)}</strong>
            {methods.length > 0
              ? `, or with ${methods.map((method) => PROVIDER_NAMES[method] ?? method).join(" or ")}`
              : ""}
            . An account made with a mobile number has no password.
          </p>
        ) : (
          <p className="text-stone-700 dark:text-stone-300">
            Your account has no password: you sign in with{" "}
            {methods.length > 0
              ? `${methods.map((method) => PROVIDER_NAMES[method] ?? method).join(" or ")} or `
              : ""}
            an e-mail link. To add a password, use{" "}
            <Link to="/forgot-password" className="font-medium text-brand-700 underline dark:text-brand-100">
              Forgot your password?
            </Link>{" "}
            with your address.
          </p>
        )}
      </Section>

      <Section title="Ways to sign in" id="sign-in-methods">
        <SignInMethods
          linked={linked}
          providers={providers}
          notice={methodsNotice}
          mobileNumber={mobileAccount ? accountLabel(user.email) : null}
        />
      </Section>

      {(mobile || phoneNumber) && (
        <Section title="Mobile number" id="mobile">
          <MobileNumber phoneNumber={phoneNumber} />
        </Section>
      )}

      <Section title="Where you're signed in" id="sessions">
        <SessionList sessions={sessions} />
      </Section>

      <Section title="Cart reminders and offers" id="reminders">
        <MarketingConsentChoice consent={consent} noEmail={mobileAccount} />
        <WhatsAppConsentSwitch consent={consent.whatsapp} />
      </Section>

      <Section title="Theme" id="theme">
        <ThemePreference />
      </Section>

      <Section title="Delete your account" id="delete" danger>
        <DeleteAccount
          hasPassword={hasPassword}
          contact={mobileAccount ? "mobile number" : "e-mail address"}
        />
      </Section>
    </div>
  );
}

function Section({
  title,
  id,
  danger,
  children,
}: {
  title: string;
  id: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className={`rounded-2xl border bg-white p-5 sm:p-6 dark:bg-stone-900 ${
        danger ? "border-red-200 dark:border-red-900" : "border-stone-200 dark:border-stone-800"
      }`}
    >
      <h2 id={`${id}-heading`} className="mb-4 font-serif text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Result({ data, intent }: { data: SettingsResult | undefined; intent: string }) {
  if (!data || data.intent !== intent) return null;
  return <Notice tone={data.ok ? "success" : "error"}>{data.message}</Notice>;
}

/**
 * Better Auth needs a name, so an account made with a mobile number is given the number as one
 * (server/auth/auth.ts): that is no name to offer the shopper as theirs.
 */
const isOnlyANumber = (name: string) => /^[+\d\s()-]*$/.test(name.trim());

function NameForm({ name }: { name: string }) {
  const fetcher = useFetcher<SettingsResult>();
  return (
    <fetcher.Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value="name" />
      <TextField label="Name" name="name" autoComplete="name" required maxLength={100} defaultValue={name} />
      <Result data={fetcher.data} intent="name" />
      <Button type="submit" size="lg" pending={fetcher.state !== "idle"} pendingLabel="Saving…">
        Save name
      </Button>
    </fetcher.Form>
  );
}

function PasswordForm() {
  const fetcher = useFetcher<SettingsResult>();
  const saved = fetcher.data?.intent === "password" && fetcher.data.ok;
  return (
    <fetcher.Form method="post" className="space-y-4" key={saved ? "saved" : "editing"}>
      <input type="hidden" name="intent" value="password" />
      <TextField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        maxLength={128}
      />
      <NewPasswordPair names={["newPassword", "confirmPassword"]} className="grid gap-4 sm:grid-cols-2" />
      <p className="text-sm text-stone-600 dark:text-stone-300">
        Changing your password signs you out on every other device.
      </p>
      <Result data={fetcher.data} intent="password" />
      <Button type="submit" size="lg" pending={fetcher.state !== "idle"} pendingLabel="Changing…">
        Change password
      </Button>
    </fetcher.Form>
  );
}

function SessionList({ sessions }: { sessions: AccountSession[] }) {
  const fetcher = useFetcher<SettingsResult>();
  return (
    <div className="space-y-3">
      <Result data={fetcher.data} intent="end-session" />
      <ul className="divide-y divide-stone-200 dark:divide-stone-800">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium">
                {describeDevice(session.userAgent)}
                {session.current && (
                  <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800 dark:bg-brand-800 dark:text-brand-50">
                    This device
                  </span>
                )}
              </p>
              <p className="text-sm text-stone-600 dark:text-stone-400">
                Signed in {formatDateTime(session.createdAt)}
                {session.ipAddress ? ` · ${session.ipAddress}` : ""}
              </p>
            </div>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="end-session" />
              <input type="hidden" name="id" value={session.id} />
              <input type="hidden" name="current" value={String(session.current)} />
              <button
                type="submit"
                aria-label={`Sign out ${session.current ? "this device" : describeDevice(session.userAgent)}, signed in ${formatDateTime(session.createdAt)}`}
                className="rounded-lg border border-stone-300 px-3 py-1.5 text-sm font-medium hover:bg-stone-100 dark:border-stone-600 dark:hover:bg-stone-800"
              >
                Sign out
              </button>
            </fetcher.Form>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const handle: RouteHandle = { meta: privatePage("Settings") };
