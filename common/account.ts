/** The signed-in user as both sides see it: never more than this leaves the server. */
export type SessionUser = { id: string; email: string; name: string; role: UserRole };

/** Owner: everything. Staff: orders, stock, questions, reviews, messages. */
export type UserRole = "customer" | "staff" | "owner";

export const isStaffRole = (role: string | undefined): role is "staff" | "owner" =>
  role === "staff" || role === "owner";

/** A sign-in of the current user, as the settings page lists it (never its token). */
export type AccountSession = {
  id: string;
  current: boolean;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
};

/** A social sign-in provider the shop has configured. */
export type SocialProviderInfo = { id: "google" | "facebook" | "github" | "twitter"; name: string };
