import type { LoaderFunctionArgs } from "react-router";
import { requireSessionUser } from "../lib/session.ts";

/** A screen still being built that will need a session: it already sends a signed-out visitor to sign in. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireSessionUser(request);
  return null;
}

export { Component } from "./coming-soon.tsx";
