import { inferAdditionalFields, magicLinkClient, phoneNumberClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

/**
 * Better Auth's browser client, on the shop's own origin. Its session hook updates every component that
 * uses it (the header's account menu) after a sign-in or sign-out made through it.
 */
export const authClient = createAuthClient({
  basePath: "/api/auth",
  plugins: [
    magicLinkClient(),
    phoneNumberClient(),
    inferAdditionalFields({ user: { role: { type: "string", input: false } } }),
  ],
});
