/** Spec 4: the guest cart lives in localStorage under a cart key. */
export const CART_KEY = "cart";
/** The id of the saved cart's merge into an account, kept until the server has answered it. */
export const MERGE_ID_KEY = "cartMergeId";
/** Spec 3 and 4: signed out, the used codes are kept in one session-store key. */
export const USED_CODES_KEY = "usedDiscountCodes";
export const APPLIED_CODE_KEY = "appliedDiscountCode";
/** Which of the used codes each account has been told about, so a sign-in sends each code once. */
export const SENT_CODES_KEY = "discountCodesSentToAccount";
