import type { KeysetPage, ListTotal } from "./lists.ts";
/** Contact messages: limits and shapes shared by the API and the web app. */

export const CONTACT_MESSAGE_MAX_LENGTH = 5000;
export const CONTACT_NAME_MAX_LENGTH = 200;
/** At most this many messages per e-mail address, and per client address, in any hour. */
export const CONTACT_MESSAGES_PER_HOUR = 5;

/** The spec's texts for the contact form's outcomes. */
export const CONTACT_TEXTS = {
  success: "Thank you for reaching out! Your message has been sent successfully.",
  serverError: "Something went wrong. Please try again.",
  networkError: "Network error. Please try again.",
} as const;

/** What POST /api/contact answers when the message is taken; a refusal is the API's one error shape. */
export type ContactResult = { ok: true };

export type ContactReply = { body: string; sentAt: string };

export type ContactMessage = {
  id: string;
  name: string;
  email: string;
  message: string;
  receivedAt: string;
  read: boolean;
  /** Set when CONTACT_FORWARD_URL / CONTACT_FORWARD_EMAIL took the message, or why they did not. */
  forwardedAt: string | null;
  forwardError: string | null;
  replies: ContactReply[];
};

export const ADMIN_MESSAGE_FILTERS = ["unread", "all"] as const;
export type AdminMessageFilter = (typeof ADMIN_MESSAGE_FILTERS)[number];

/** The inbox, newest first by keyset; the counts stop at 10,000. */
export type AdminMessagePage = KeysetPage<ContactMessage> & { unreadCount: ListTotal; allCount: ListTotal };
