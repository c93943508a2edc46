import { Hono } from "hono";
import { z } from "zod";
import { plainText } from "../../common/schemas/text.ts";
import { configuredProviders } from "../auth/auth.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { mobileSignInAvailable } from "../sms/sms-sender.ts";
import { validate } from "../validate.ts";
import { findSessionToken, listActiveSessions } from "./account.data.ts";

/** What Better Auth's own endpoints do not offer in the shape the shop needs: no session tokens ever leave. */
export function accountRoutes(deps: Deps) {
  const { db, env, auth } = deps;
  const signedIn = async (headers: Headers) => {
    const session = await auth.api.getSession({ headers });
    if (!session) throw httpError(401, "unauthenticated", "Please sign in to continue.");
    return session;
  };

  return new Hono()
    .get("/providers", (c) =>
      c.json({ providers: configuredProviders(env), mobile: mobileSignInAvailable(env) }),
    )
    .get("/sessions", async (c) => {
      const { user, session } = await signedIn(c.req.raw.headers);
      return c.json({ sessions: await listActiveSessions(db, user.id, session.id) });
    })
    .delete("/sessions/:id", validate("param", z.object({ id: plainText().min(1).max(100) })), async (c) => {
      const { user } = await signedIn(c.req.raw.headers);
      const token = await findSessionToken(db, user.id, c.req.valid("param").id);
      if (!token) throw notFound("That session has already ended.");
      const { headers } = await auth.api.revokeSession({
        headers: c.req.raw.headers,
        body: { token },
        returnHeaders: true,
      });
      // Ending the session this browser uses also clears its cookie.
      for (const cookie of headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
      return c.body(null, 204);
    });
}
