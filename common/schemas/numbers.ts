import { z } from "zod";

/** The largest value a PostgreSQL integer column holds: a bigger number can never match a stored one. */
export const INT4_MAX = 2_147_483_647;

/** A page of a listing, from a query string: 1 to 10,000 (nobody pages further; offsets stay small). */
export const pageSchema = z.coerce
  .number()
  .int("must be a whole number")
  .min(1, "must be 1 or more")
  .max(10_000, "must be at most 10000")
  .default(1);
