import { useFetcher } from "react-router";
import type { SocialProviderInfo } from "../../../common/account.ts";
import { Notice } from "../../components/notice.tsx";
import { authClient } from "../../lib/auth-client.ts";
import { attemptAuth, useProviderRedirect } from "../../lib/auth-errors.ts";

export type LinkedAccount = { id: string; providerId: string };
export type SignInMethodsResult = { intent: "disconnect"; ok: boolean; message: string };

const smallButton =
  "rounded-lg border border-stone-300 px-3 py-1.5 text-sm font-medium hover:bg-stone-100 aria-disabled:opacity-60 dark:border-stone-600 dark:hover:bg-stone-800";

/**
 * The ways this account signs in: its password and each configured provider, connected or not. Connecting
 * goes to the provider and comes back to Settings; the last way in cannot be disconnected (the server
 * refuses it too), so an account is never left without one.
 */
export function SignInMethods({
  linked,
  providers,
  notice,
  mobileNumber,
}: {
  linked: LinkedAccount[];
  providers: SocialProviderInfo[];
  /** Set for an account made with a mobile number: that number is its way in, and it has no password. */
  mobileNumber: string | null;
  /** What the provider's redirect back to Settings said (connected, or why not). */
  notice: { tone: "success" | "error"; message: string } | null;
}) {
  const fetcher = useFetcher<SignInMethodsResult>();
  const { pending, error, goTo } = useProviderRedirect();
  const hasPassword = linked.some((account) => account.providerId === "credential");
  // Better Auth keeps the last connected account whatever else signs in (an account's mobile number is not
  // in its list), so the rule is the same for every account; only the explanation differs.
  const onlyOne = linked.length <= 1;

  const connect = (provider: SocialProviderInfo["id"]) =>
    goTo(provider, (fetchOptions) =>
      authClient.linkSocial(
        {
          provider,
          callbackURL: `/settings?connected=${provider}`,
          errorCallbackURL: `/settings?provider=${provider}`,
        },
        fetchOptions,
      ),
    );

  return (
    <div className="space-y-3">
      {notice && <Notice tone={notice.tone}>{notice.message}</Notice>}
      {error && <Notice tone="error">{error}</Notice>}
      {fetcher.data && <Notice tone={fetcher.data.ok ? "success" : "error"}>{fetcher.data.message}</Notice>}
      <ul className="divide-y divide-stone-200 dark:divide-stone-800">
        {mobileNumber && (
          <li className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium">Mobile number</p>
              <p className="text-sm text-stone-600 dark:text-stone-400">
                {mobileNumber}: a code by SMS each time
              </p>
            </div>
          </li>
        )}
        {(hasPassword || !mobileNumber) && (
          <li className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium">Password</p>
              <p className="text-sm text-stone-600 dark:text-stone-400">{hasPassword ? "Set" : "Not set"}</p>
            </div>
          </li>
        )}
        {providers.map(({ id, name }) => {
          const account = linked.find((entry) => entry.providerId === id);
          return (
            <li key={id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium">{name}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  {account ? "Connected" : "Not connected"}
                </p>
              </div>
              {account ? (
                <fetcher.Form method="post">
                  <input type="hidden" name="intent" value="disconnect" />
                  <input type="hidden" name="accountId" value={account.id} />
                  <input type="hidden" name="providerName" value={name} />
                  <button
                    type="submit"
                    className={smallButton}
                    aria-label={`Disconnect ${name}`}
                    aria-disabled={onlyOne || fetcher.state !== "idle" || undefined}
                    aria-describedby={onlyOne ? "last-method-note" : undefined}
                    onClick={(event) => {
                      if (onlyOne) event.preventDefault();
                    }}
                  >
                    Disconnect
                  </button>
                </fetcher.Form>
              ) : (
                <button
                  type="button"
                  className={smallButton}
                  aria-label={`Connect ${name}`}
                  aria-disabled={pending !== null || undefined}
                  onClick={() => pending === null && connect(id)}
                >
                  {pending === id ? `Opening ${name}…` : "Connect"}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {onlyOne && !hasPassword && linked.length > 0 && (
        <p id="last-method-note" className="text-sm text-stone-600 dark:text-stone-300">
          {mobileNumber
            ? "The only connected account cannot be disconnected: connect another one first. Your mobile number signs you in either way."
            : "This is your only way to sign in, so it cannot be disconnected. Connect another one, or set a password with “Forgot your password?” on the sign-in page, first."}
        </p>
      )}
    </div>
  );
}

/** The settings action's part: disconnect one provider account by its id. */
export async function disconnectProvider(form: FormData): Promise<SignInMethodsResult> {
  const name = String(form.get("providerName") ?? "That provider");
  const result = await attemptAuth((options) =>
    authClient.unlinkAccount({ accountId: String(form.get("accountId") ?? "") }, options),
  );
  if (result.ok) return { intent: "disconnect", ok: true, message: `${name} is disconnected.` };
  return {
    intent: "disconnect",
    ok: false,
    message:
      result.code === "FAILED_TO_UNLINK_LAST_ACCOUNT"
        ? "This is your only way to sign in, so it cannot be disconnected."
        : result.message,
  };
}
