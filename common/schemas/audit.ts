import { z } from "zod";
import { keysetQueryFields, type ListCursors } from "../lists.ts";
import { plainText } from "./text.ts";

/** What the audit log records changes of; the list's filter offers these. */
export const AUDIT_ENTITY_TYPES = [
  "order",
  "stock",
  "question",
  "review",
  "message",
  "discount_code",
  "role",
  "shop_details",
  "banner",
  "combo",
  "tax",
  "product",
  "delivery_rule",
  "cod_rule",
  "job",
  "export",
  "settings",
  "page",
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

export const AUDIT_ENTITY_LABELS: Record<AuditEntityType, string> = {
  order: "Orders",
  stock: "Stock",
  question: "Questions",
  review: "Reviews",
  message: "Messages",
  discount_code: "Discount codes",
  role: "Roles",
  shop_details: "Shop details",
  banner: "Banner",
  combo: "Combos",
  tax: "Tax rates and HSN",
  product: "Products",
  delivery_rule: "Delivery rules",
  cod_rule: "Cash-on-delivery rules",
  job: "Background jobs",
  export: "Exports",
  settings: "Shop settings",
  page: "Blog and policy pages",
};

export const auditListQuerySchema = z
  .object({
    entityType: z.enum(AUDIT_ENTITY_TYPES).optional(),
    actorId: plainText().trim().min(1).max(100).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(30),
    ...keysetQueryFields,
  })
  .strict();
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export type AuditEntryView = {
  id: string;
  at: string;
  actorId: string;
  actorEmail: string;
  entityType: AuditEntityType;
  entityId: string;
  action: string;
  before: unknown;
  after: unknown;
};

/** The staff who appear in the log, for the "by" filter. */
export type AuditActorOption = { id: string; email: string };

export type AuditPage = { items: AuditEntryView[]; cursors: ListCursors; actors: AuditActorOption[] };
