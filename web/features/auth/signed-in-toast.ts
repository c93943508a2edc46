import { accountLabel } from "../../../common/mobile-account.ts";
import { showToast } from "../../components/toast.tsx";

/** Says who is now signed in, for the ways in that end on another page with no form of their own left. */
export function showSignedInToast(email: string) {
  showToast(`You're signed in as ${accountLabel(email)}.`);
}
