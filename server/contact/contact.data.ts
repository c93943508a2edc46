import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  type AdminMessageFilter,
  type AdminMessagePage,
  CONTACT_MESSAGES_PER_HOUR,
  type ContactMessage,
} from "../../common/contact.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { countRowsUpTo, type KeysetRequest, keysetQuery } from "../db/keyset.ts";
import { contactMessages, contactReplies } from "../db/schema.ts";
import { MINUTE_MS, requireAllowance } from "../throttles/throttle.ts";

export const ADMIN_MESSAGE_PAGE_SIZE = 50;

type MessageRow = typeof contactMessages.$inferSelect;
type ReplyRow = typeof contactReplies.$inferSelect;
export type StoredMessage = Pick<MessageRow, "id" | "name" | "email" | "message" | "createdAt">;

/**
 * Stores a message unless its e-mail address or client address already sent CONTACT_MESSAGES_PER_HOUR in
 * the hour: then `refusal`'s 429 (server/throttles/throttle.ts; the e-mail first, so no two requests wait on
 * each other in a circle). Counted inside the transaction that stores the message, so only stored ones count.
 */
export async function storeContactMessage(
  db: Db,
  input: { name: string; email: string; message: string; clientIp: string | undefined },
  refusal: (retryAfterSeconds: number) => { code: string; message: string },
): Promise<{ stored: StoredMessage }> {
  const email = input.email.toLowerCase();
  const hour = 60 * MINUTE_MS;
  return db.transaction(async (tx) => {
    await requireAllowance(tx, `contact:email:${email}`, CONTACT_MESSAGES_PER_HOUR, hour, refusal);
    if (input.clientIp) {
      await requireAllowance(tx, `contact:ip:${input.clientIp}`, CONTACT_MESSAGES_PER_HOUR, hour, refusal);
    }
    const [stored] = await tx
      .insert(contactMessages)
      .values({ name: input.name, email: input.email, message: input.message, clientIp: input.clientIp })
      .returning({
        id: contactMessages.id,
        name: contactMessages.name,
        email: contactMessages.email,
        message: contactMessages.message,
        createdAt: contactMessages.createdAt,
      });
    if (!stored) throw new Error("The message was not stored");
    return { stored };
  });
}

export async function recordForwarding(db: Db, id: string, problem: string | undefined) {
  await db
    .update(contactMessages)
    .set(
      problem
        ? { forwardError: problem, forwardedAt: null }
        : { forwardedAt: new Date(), forwardError: null },
    )
    .where(eq(contactMessages.id, id));
}

function presentMessage(row: MessageRow, replies: ReplyRow[]): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    receivedAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
    forwardedAt: row.forwardedAt?.toISOString() ?? null,
    forwardError: row.forwardError,
    replies: replies.map((reply) => ({ body: reply.body, sentAt: reply.createdAt.toISOString() })),
  };
}

async function withReplies(db: Db, rows: MessageRow[]): Promise<ContactMessage[]> {
  const ids = rows.map((row) => row.id);
  const replies =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(contactReplies)
          .where(inArray(contactReplies.messageId, ids))
          .orderBy(contactReplies.createdAt);
  return rows.map((row) =>
    presentMessage(
      row,
      replies.filter((reply) => reply.messageId === row.id),
    ),
  );
}

const MESSAGE_KEYS = { at: contactMessages.createdAt, id: contactMessages.id };

/**
 * The inbox, newest first by keyset (docs/decisions/034), from the (created_at, id) index or its partial
 * twin for unread messages; the counts stop at 10,000.
 */
export async function listMessages(
  db: Db,
  query: { filter: AdminMessageFilter } & KeysetRequest,
): Promise<AdminMessagePage> {
  const unread = isNull(contactMessages.readAt);
  const keyset = keysetQuery(MESSAGE_KEYS, query);
  const [rows, unreadCount, allCount] = await Promise.all([
    db
      .select({ message: contactMessages, cursorAt: keyset.cursorAt })
      .from(contactMessages)
      .where(and(query.filter === "unread" ? unread : undefined, keyset.where))
      .orderBy(...keyset.orderBy)
      .limit(ADMIN_MESSAGE_PAGE_SIZE + 1),
    countRowsUpTo(db, contactMessages, unread),
    countRowsUpTo(db, contactMessages, undefined),
  ]);
  const page = keyset.page(rows, ADMIN_MESSAGE_PAGE_SIZE, (row) => row.message.id);
  return {
    items: await withReplies(
      db,
      page.items.map((row) => row.message),
    ),
    unreadCount,
    allCount,
    total: query.filter === "unread" ? unreadCount : allCount,
    pageSize: ADMIN_MESSAGE_PAGE_SIZE,
    ...page.cursors,
  };
}

export async function getMessage(db: Db, id: string): Promise<ContactMessage | undefined> {
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
  return row && (await withReplies(db, [row]))[0];
}

export async function setMessageRead(
  db: Db,
  id: string,
  read: boolean,
  actor: AuditActor,
): Promise<ContactMessage | undefined> {
  const row = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ readAt: contactMessages.readAt })
      .from(contactMessages)
      .where(eq(contactMessages.id, id))
      .for("update");
    if (!current) return undefined;
    await tx
      .update(contactMessages)
      .set({ readAt: read ? sql`coalesce(${contactMessages.readAt}, now())` : null })
      .where(eq(contactMessages.id, id));
    const before = { read: current.readAt !== null };
    await recordAudit(tx, {
      actor,
      entityType: "message",
      entityId: id,
      action: read ? "mark read" : "mark unread",
      before,
      after: { read },
    });
    return { id };
  });
  return row && getMessage(db, row.id);
}

/**
 * Records a reply and marks the message read, committing only once `send` has delivered the e-mail:
 * the inbox never claims a reply the customer did not get.
 */
export async function replyToMessage(
  db: Db,
  input: { id: string; body: string; adminId: string; actor: AuditActor },
  send: (message: MessageRow) => Promise<void>,
): Promise<ContactMessage | undefined> {
  const found = await db.transaction(async (tx) => {
    const [message] = await tx
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, input.id))
      .for("update");
    if (!message) return false;
    await tx.insert(contactReplies).values({ messageId: input.id, body: input.body, sentBy: input.adminId });
    await tx
      .update(contactMessages)
      .set({ readAt: message.readAt ?? new Date() })
      .where(eq(contactMessages.id, input.id));
    await recordAudit(tx, {
      actor: input.actor,
      entityType: "message",
      entityId: input.id,
      action: "reply",
      after: { reply: input.body },
    });
    await send(message);
    return true;
  });
  return found ? getMessage(db, input.id) : undefined;
}
