import { z } from "zod";
import type { UserRole } from "../account.ts";
import { emailSchema } from "./orders.ts";

/**
 * The owner gives an existing account a role, changes it or takes it away (customer). The account is named by
 * its e-mail, as `npm run admin` names it.
 */
export const setStaffRoleSchema = z
  .object({
    email: emailSchema,
    role: z.enum(["owner", "staff", "customer"], { error: "Role must be owner, staff or customer." }),
  })
  .strict();

export type SetStaffRole = z.infer<typeof setStaffRoleSchema>;

/** One person with admin access, as the owner's staff page lists them. */
export type StaffMember = { id: string; name: string; email: string; role: Exclude<UserRole, "customer"> };

export type StaffList = { people: StaffMember[]; youId: string };

export type StaffRoleAnswer = { message: string; people: StaffMember[] };
