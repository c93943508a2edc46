/** The signed-in user as both sides see it: never more than this leaves the server. */
export type SessionUser = { id: string; email: string; name: string; role: "customer" | "admin" };
