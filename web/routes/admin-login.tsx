import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { loadSignInPage, SignInPage, signInWithPassword } from "../features/auth/sign-in-page.tsx";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

export const loader = ({ request }: LoaderFunctionArgs) => loadSignInPage(request, "admin");
export const action = ({ request }: ActionFunctionArgs) => signInWithPassword(request, "admin");
export const Component = SignInPage;

export const handle: RouteHandle = { meta: privatePage("Admin sign-in") };
