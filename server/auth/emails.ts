import type { Env } from "../env.ts";
import { composeMail, type MailContent, type MailSignature } from "../mail-templates.ts";

const NOT_YOU =
  "If you did not ask for this, you can ignore this e-mail: nothing changes until the link is used.";

export function magicLinkMail(
  env: Env,
  { url, minutes }: { url: string; minutes: number },
  signature?: MailSignature,
): MailContent {
  return composeMail(
    env,
    {
      subject: `Your sign-in link for ${env.SHOP_NAME}`,
      preview: `Sign in with one click. The link works once, for ${minutes} minutes.`,
      heading: "Sign in with one click",
      paragraphs: [
        "Someone, hopefully you, asked to sign in to the shop with this e-mail address.",
        `The link below works once and only for the next ${minutes} minutes.`,
      ],
      action: { label: `Sign in to ${env.SHOP_NAME}`, url },
      footnotes: [NOT_YOU],
    },
    signature,
  );
}

export function resetPasswordMail(
  env: Env,
  { url, minutes }: { url: string; minutes: number },
  signature?: MailSignature,
): MailContent {
  return composeMail(
    env,
    {
      subject: `Reset your ${env.SHOP_NAME} password`,
      preview: `Choose a new password. The link works for ${minutes} minutes.`,
      heading: "Choose a new password",
      paragraphs: [
        "We received a request to reset the password of your account.",
        `The link below works once and only for the next ${minutes} minutes. Choosing a new password signs you out everywhere else.`,
      ],
      action: { label: "Choose a new password", url },
      footnotes: [NOT_YOU],
    },
    signature,
  );
}

export function confirmEmailMail(
  env: Env,
  { url, hours }: { url: string; hours: number },
  signature?: MailSignature,
): MailContent {
  return composeMail(
    env,
    {
      subject: `Confirm your e-mail for ${env.SHOP_NAME}`,
      preview: "One click to confirm your address and finish signing up.",
      heading: "Confirm your e-mail address",
      paragraphs: [
        `Welcome to ${env.SHOP_NAME}! Please confirm that this address is yours to finish creating your account.`,
        `The link works for ${hours} hours. Confirming also signs you in.`,
      ],
      action: { label: "Confirm my e-mail", url },
      footnotes: ["If you did not create an account, ignore this e-mail and no account will be opened."],
    },
    signature,
  );
}

/**
 * Sent instead of a confirmation when someone signs up with an address that already has an account: the sign-up
 * page answers the same either way, so only the owner of the mailbox learns the account exists.
 */
export function existingAccountMail(env: Env, signature?: MailSignature): MailContent {
  const url = (path: string) => new URL(path, env.PUBLIC_URL).toString();
  return composeMail(
    env,
    {
      subject: `You already have a ${env.SHOP_NAME} account`,
      preview: "Someone tried to sign up with your address. You can sign in instead.",
      heading: "You already have an account",
      paragraphs: [
        "Someone, probably you, just tried to create an account with this e-mail address. It already has one, so nothing was changed.",
        "Sign in with your password, or with a one-time link sent by e-mail if you have forgotten it. You can also choose a new password from the sign-in page.",
      ],
      action: { label: "Sign in", url: url("/login") },
      footnotes: ["If this was not you, your account is safe: no one can sign in without your password."],
    },
    signature,
  );
}

/**
 * Sent once each time password sign-in for the address is locked after many wrong passwords: the owner learns
 * that someone is guessing, and how to get in meanwhile.
 */
export function signInLockedMail(
  env: Env,
  { minutes }: { minutes: number },
  signature?: MailSignature,
): MailContent {
  const url = (path: string) => new URL(path, env.PUBLIC_URL).toString();
  return composeMail(
    env,
    {
      subject: `Password sign-in to your ${env.SHOP_NAME} account is paused`,
      preview: `Too many wrong passwords were tried. Password sign-in is paused for ${minutes} minutes.`,
      heading: "Too many wrong passwords",
      paragraphs: [
        `Someone tried to sign in to your account with a wrong password many times, so password sign-in is paused for ${minutes} minutes.`,
        "If it was you, you can sign in right away with a one-time link sent to this address. If it was not you, your account is safe: no one got in, and you may want to choose a new password.",
      ],
      action: { label: "Sign in with an e-mail link", url: url("/login/email-link") },
      footnotes: ["Your orders, cart and details are unchanged."],
    },
    signature,
  );
}
