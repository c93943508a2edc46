import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { loadSignInPage, SignInPage, signInWithPassword } from "../features/auth/sign-in-page.tsx";

export const loader = ({ request }: LoaderFunctionArgs) => loadSignInPage(request, "admin");
export const action = ({ request }: ActionFunctionArgs) => signInWithPassword(request, "admin");
export const Component = SignInPage;
