import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { loadSignInPage, SignInPage, signInWithPassword } from "../features/auth/sign-in-page.tsx";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

export const loader = ({ request }: LoaderFunctionArgs) => loadSignInPage(request, "shop");
export const action = ({ request }: ActionFunctionArgs) => signInWithPassword(request, "shop");
export const Component = SignInPage;

export const handle: RouteHandle = { meta: privatePage("Sign in") };
