import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { CartEntry } from "../../common/cart.ts";
import { formatDate } from "../../common/india-time.ts";
import { isMobileAccountEmail } from "../../common/mobile-account.ts";
import type { Db, DbOrTx, Tx } from "../db/client.ts";
import {
  cartItems,
  combos,
  discountCodes,
  type LEFT_CART_CLOSED,
  leftCarts,
  products,
  users,
} from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { enqueueJobs, type NewJob } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";
import { composeMail, readMailSignature } from "../mail-templates.ts";
import { sendTemplate, type WhatsAppError, whatsAppConfig, whatsAppNumber } from "../messaging/whatsapp.ts";
import {
  accountWhatsAppConsent,
  consentOf,
  recordConsent,
  recordWhatsAppConsent,
  whatsAppConsentOf,
} from "./consent.ts";
import { restoreLink, restoreSuffix, unsubscribeLink, whatsAppUnsubscribeQuery } from "./reminder-links.ts";
import { readReminderSettings } from "./reminder-settings.ts";

/**
 * Carts left behind (issue 44, docs/decisions/089). A periodic sweep finds the carts resting past the owner's
 * delay and queues one reminder job per cart and reminder under a unique key; the job sends it with the left
 * cart's row locked and its count checked, so any number of sweeps, instances and retries send each once.
 */

export const CART_REMINDER_SWEEP_JOB = "cart-reminder-sweep";
export const CART_REMINDER_JOB = "cart-reminder";
export const CART_WHATSAPP_REMINDER_JOB = "cart-reminder-whatsapp";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Carts resting longer than this when first seen are not reminded: a reminder a week late reads as spam. */
const OLDEST_CART_MS = 7 * DAY_MS;
/** One shopper gets a first reminder at most this often, however many carts they leave. */
const REMIND_AGAIN_AFTER_MS = 7 * DAY_MS;
/** The second reminder comes a day after the first, and not at all once it is three days late. */
const SECOND_AFTER_MS = DAY_MS;
const SECOND_AT_LATEST_MS = 3 * DAY_MS;
/** A cart's restore link works this long at least (longer when its code does). */
const LINK_DAYS = 7;
/** Left carts never reminded are forgotten after this long (a guest's e-mail with them). */
const FORGET_AFTER_MS = 90 * DAY_MS;

type Line = { id: string; kind: "product" | "combo"; quantity: number };

/**
 * A guest's checkout that got as far as an e-mail or a mobile: recorded with its lines (the browser holds the
 * cart), updated while it waits for its reminder. A tick in "remind me" is the guest's yes, recorded with it.
 */
export async function recordGuestCheckout(
  db: Db,
  checkout: {
    email?: string;
    mobile?: string;
    items: readonly CartEntry[];
    remindMe?: boolean;
    remindOnWhatsApp?: boolean;
  },
  now = new Date(),
): Promise<void> {
  const email = checkout.email?.toLowerCase();
  const contact = email ?? checkout.mobile;
  if (!contact || checkout.items.length === 0) return;
  const items: Line[] = checkout.items.map(({ id, kind, quantity }) => ({ id, kind, quantity }));
  await db.transaction(async (tx) => {
    if (email && checkout.remindMe !== undefined) {
      const standing = await consentOf(tx, email);
      // An unticked box is no answer; unticking one ticked before takes the yes back.
      if (checkout.remindMe || standing.consented) {
        await recordConsent(tx, { email, userId: null, consented: checkout.remindMe, source: "checkout" });
      }
    }
    // WhatsApp's tick is its own consent (decision 096), for the mobile it came with, recorded the same way.
    if (checkout.mobile && checkout.remindOnWhatsApp !== undefined) {
      const standing = await whatsAppConsentOf(tx, checkout.mobile);
      if (checkout.remindOnWhatsApp || standing.consented) {
        await recordWhatsAppConsent(tx, {
          mobile: checkout.mobile,
          userId: null,
          consented: checkout.remindOnWhatsApp,
          source: "checkout",
        });
      }
    }
    await tx
      .insert(leftCarts)
      .values({
        subject: `guest:${contact}`,
        email: email ?? null,
        mobile: checkout.mobile ?? null,
        items,
        touchedAt: now,
      })
      .onConflictDoUpdate({
        target: leftCarts.subject,
        targetWhere: sql`${leftCarts.remindersSent} = 0 and ${leftCarts.closedReason} is null`,
        set: {
          mobile: sql`coalesce(excluded.mobile, ${leftCarts.mobile})`,
          items: sql`excluded.items`,
          touchedAt: sql`excluded.touched_at`,
        },
      });
  });
}

/**
 * Finds the carts due a reminder as of `now` (the clock, so tests can move it) and queues their jobs. Every
 * instance runs it each minute; what it writes is keyed, so running it twice at once writes nothing twice.
 * Returns how many mail reminder jobs it offered (each first one has its WhatsApp job beside it).
 */
export async function sweepLeftCarts(deps: Pick<Deps, "db" | "jobs">, now = new Date()): Promise<number> {
  const { db } = deps;
  const settings = await readReminderSettings(db);
  const due = new Date(now.getTime() - settings.delayMinutes * 60_000);
  const oldest = new Date(now.getTime() - OLDEST_CART_MS);
  // Signed-in carts resting past the delay, each as of its last touch (a cart touched again is a new rest). The
  // left carts it moves are locked first in the order of their ids, the order an order's won-back recheck locks
  // them in (migration won_back_cheaper), so the two never wait on each other in a circle.
  const resting = sql`
    select 'user:' || c.user_id as subject, c.user_id, c.updated_at
      from carts c
     where c.updated_at <= ${due.toISOString()} and c.updated_at > ${oldest.toISOString()}
       and exists (select 1 from cart_items i where i.user_id = c.user_id)
       and not exists (
         select 1 from left_carts l where l.subject = 'user:' || c.user_id and l.touched_at >= c.updated_at)`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      select l.id from left_carts l
       where l.subject in (select subject from (${resting}) as r)
         and l.reminders_sent = 0 and l.closed_reason is null
       order by l.id for update of l`);
    await tx.execute(sql`
      insert into left_carts (subject, user_id, touched_at)
      select subject, user_id, updated_at from (${resting}) as r
      on conflict (subject) where reminders_sent = 0 and closed_reason is null
      do update set touched_at = excluded.touched_at`);
  });
  const first = await db
    .select({ id: leftCarts.id })
    .from(leftCarts)
    .where(
      sql`${leftCarts.remindersSent} = 0 and ${leftCarts.closedReason} is null
        and ${leftCarts.touchedAt} <= ${due.toISOString()} and ${leftCarts.touchedAt} > ${oldest.toISOString()}`,
    );
  const second = settings.secondReminder
    ? await db
        .select({ id: leftCarts.id })
        .from(leftCarts)
        .where(
          sql`${leftCarts.remindersSent} = 1 and ${leftCarts.closedReason} is null
            and ${leftCarts.firstRemindedAt} <= ${new Date(now.getTime() - SECOND_AFTER_MS).toISOString()}
            and ${leftCarts.firstRemindedAt} > ${new Date(now.getTime() - SECOND_AT_LATEST_MS).toISOString()}`,
        )
    : [];
  const jobs: NewJob[] = [
    ...first.map(({ id }) => reminderJob(id, 1)),
    // WhatsApp's one reminder goes beside the first mail, as its own job: a mail refused or late holds it not.
    ...first.map(({ id }) => whatsAppReminderJob(id)),
    ...second.map(({ id }) => reminderJob(id, 2)),
  ];
  await enqueueJobs(db, jobs);
  if (jobs.length > 0) deps.jobs.wake();
  const offered = first.length + second.length;
  await db.execute(sql`
    delete from left_carts
     where id in (
       select id from left_carts
        where reminders_sent = 0 and created_at < ${new Date(now.getTime() - FORGET_AFTER_MS).toISOString()}
        order by id for update)`);
  return offered;
}

const reminderJob = (id: string, reminder: 1 | 2): NewJob => ({
  kind: CART_REMINDER_JOB,
  payload: { id, reminder },
  key: `${CART_REMINDER_JOB}:${id}:${reminder}`,
});

const whatsAppReminderJob = (id: string): NewJob => ({
  kind: CART_WHATSAPP_REMINDER_JOB,
  payload: { id },
  key: `${CART_WHATSAPP_REMINDER_JOB}:${id}`,
});

/** The lines' names as the shop shows them, for the mail and the restore page. */
export async function namedLines(db: Pick<DbOrTx, "select">, lines: readonly Line[]) {
  const slugs = lines.filter((line) => line.kind === "product").map((line) => line.id);
  const comboIds = lines.filter((line) => line.kind === "combo").map((line) => line.id);
  const [productNames, comboNames] = await Promise.all([
    slugs.length
      ? db
          .select({ id: products.slug, name: products.name })
          .from(products)
          .where(inArray(products.slug, slugs))
      : [],
    comboIds.length
      ? db.select({ id: combos.id, name: combos.title }).from(combos).where(inArray(combos.id, comboIds))
      : [],
  ]);
  const names = new Map([...productNames, ...comboNames].map((row) => [row.id, row.name]));
  return lines
    .filter((line) => names.has(line.id))
    .map((line) => ({ ...line, name: names.get(line.id) as string }));
}

/** A code only this shopper can use, once, until it expires: the discounts' own rules apply it. */
/** Whom a left cart's reminder greets and writes to: the account as it is now, else the guest's e-mail. */
async function contactOfLeftCart(tx: Tx, row: { userId: string | null; email: string | null }) {
  if (!row.userId) return { email: row.email, name: null };
  const [user] = await tx
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, row.userId));
  return { email: user?.email.toLowerCase() ?? null, name: user?.name ?? null };
}

/** What a left cart holds now, named: the account's cart as it stands, or the lines a guest's checkout kept. */
async function linesOfLeftCart(tx: Tx, row: { userId: string | null; items: Line[] | null }) {
  const lines: Line[] = row.userId
    ? await tx
        .select({ id: cartItems.itemId, kind: cartItems.kind, quantity: cartItems.quantity })
        .from(cartItems)
        .where(eq(cartItems.userId, row.userId))
    : (row.items ?? []);
  return namedLines(tx, lines);
}

/** Whether the same shopper had another cart reminded (by the column's channel) within REMIND_AGAIN_AFTER_MS. */
async function remindedLately(
  tx: Tx,
  subject: string,
  id: string,
  remindedAt: typeof leftCarts.lastRemindedAt | typeof leftCarts.whatsappSentAt,
  now: Date,
) {
  const [recent] = await tx
    .select({ id: leftCarts.id })
    .from(leftCarts)
    .where(
      and(
        eq(leftCarts.subject, subject),
        sql`${leftCarts.id} <> ${id}`,
        sql`${remindedAt} > ${new Date(now.getTime() - REMIND_AGAIN_AFTER_MS).toISOString()}`,
      ),
    )
    .limit(1);
  return recent !== undefined;
}

async function createReminderCode(tx: Tx, email: string, percent: number, endsAt: Date): Promise<string> {
  for (;;) {
    const code = `BACK${randomBytes(5).toString("hex").toUpperCase().slice(0, 8)}`;
    const inserted = await tx
      .insert(discountCodes)
      .values({
        code,
        percent,
        description: `${percent}% off your cart`,
        endsAt,
        maxUses: 1,
        usesPerCustomer: 1,
        reservedFor: email,
      })
      .onConflictDoNothing()
      .returning({ code: discountCodes.code });
    if (inserted.length === 1) return code;
  }
}

/**
 * Sends a left cart its reminder (1 or 2), unless it should not go: the owner switched reminders off, the
 * shopper ordered since, emptied the cart, never said yes or has unsubscribed, or was reminded of another cart
 * this week. The row is locked for the whole of it and the count checked first, so a second worker (or a
 * retry after a lost answer) finds the reminder sent and sends nothing.
 */
export async function sendCartReminder(deps: Deps, id: string, reminder: 1 | 2, now = new Date()) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(leftCarts).where(eq(leftCarts.id, id)).for("update");
    if (!row || row.closedReason !== null || row.remindersSent !== reminder - 1) return;
    const close = (reason: (typeof LEFT_CART_CLOSED)[number]) =>
      tx.update(leftCarts).set({ closedReason: reason }).where(eq(leftCarts.id, id));
    const settings = await readReminderSettings(tx);
    if (!settings.enabled) return close("off");
    if (reminder === 2 && !settings.secondReminder) return;

    const { email, name } = await contactOfLeftCart(tx, row);
    if (!email || isMobileAccountEmail(email)) return close("no_email");

    const ordered = await tx.execute(sql`
      select 1 from orders
       where (${row.userId ? sql`user_id = ${row.userId} or ` : sql``}lower(guest_email) = ${email})
         and created_at >= ${row.touchedAt.toISOString()}
       limit 1`);
    if (ordered.rows.length > 0) return close("ordered");

    const consent = await consentOf(tx, email);
    if (!consent.consented) return close(consent.source ? "unsubscribed" : "no_consent");

    const named = await linesOfLeftCart(tx, row);
    if (named.length === 0) return close("emptied");

    if (reminder === 1) {
      if (await remindedLately(tx, row.subject, id, leftCarts.lastRemindedAt, now)) {
        return close("recently_reminded");
      }
    }

    let code = row.discountCode;
    let codeEnds: Date | null = null;
    if (reminder === 1 && settings.codePercent > 0) {
      codeEnds = new Date(now.getTime() + settings.codeDays * DAY_MS);
      code = await createReminderCode(tx, email, settings.codePercent, codeEnds);
    } else if (code) {
      const [standing] = await tx
        .select({ endsAt: discountCodes.endsAt, timesUsed: discountCodes.timesUsed })
        .from(discountCodes)
        .where(eq(discountCodes.code, code));
      // A code already used or past its day is not offered again.
      if (standing?.endsAt && standing.endsAt > now && standing.timesUsed === 0) codeEnds = standing.endsAt;
      else code = null;
    }
    await tx
      .update(leftCarts)
      .set({
        remindersSent: reminder,
        firstRemindedAt: row.firstRemindedAt ?? now,
        lastRemindedAt: now,
        discountCode: row.discountCode ?? code,
        items: named.map(({ id: itemId, kind, quantity }) => ({ id: itemId, kind, quantity })),
      })
      .where(eq(leftCarts.id, id));

    const linkEnds = new Date(Math.max(now.getTime() + LINK_DAYS * DAY_MS, codeEnds?.getTime() ?? 0));
    const unsubscribe = unsubscribeLink(deps.env, deps.authSecret, email);
    const percent = code ? await percentOf(tx, code) : 0;
    const mail = composeMail(
      deps.env,
      {
        subject: reminder === 1 ? "You left something in your cart" : "Your cart is still saved for you",
        preview: named.map((line) => line.name).join(", "),
        heading: name ? `${name.split(" ")[0]}, your cart is waiting` : "Your cart is waiting",
        paragraphs: [
          reminder === 1
            ? "You left these in your cart. They are saved for you: one tap brings the cart back, on this phone or any other."
            : "A last word about the cart you left: it is still saved, one tap away.",
          ...(code && codeEnds
            ? [
                `Use code ${code} for ${percent}% off this order, until ${formatDate(codeEnds)}. It is yours alone and works once.`,
              ]
            : []),
        ],
        details: named.map((line) => ({ label: line.name, value: `× ${line.quantity}` })),
        action: { label: "Back to my cart", url: restoreLink(deps.env, deps.authSecret, id, linkEnds) },
        footnotes: [
          "You get this because you asked to be reminded about a cart you leave behind. You will get at most two reminders for it.",
        ],
        unsubscribeUrl: unsubscribe,
      },
      await readMailSignature(tx, deps.env),
    );
    await deps.mailer.send({
      to: email,
      ...mail,
      headers: {
        "List-Unsubscribe": `<${unsubscribe}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
  });
}

/** A refusal the next try would not change: the message is recorded as refused and not sent again. */
const isRefusal = (error: WhatsAppError) =>
  error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 429 && error.metaCode !== 130429;

/** Meta's code for "this user has stopped marketing messages" from the shop's number. */
const STOPPED_MARKETING = 131050;

/**
 * Sends a left cart its one WhatsApp reminder (docs/decisions/096), to the number the shopper ticked "Remind me
 * on WhatsApp" for, unless that yes was taken back, the shopper ordered since, emptied the cart, was reminded on
 * WhatsApp of another cart this week, or the owner switched reminders off. The row is locked and its WhatsApp
 * columns checked first, so it goes once whatever runs it twice. WhatsApp refusing it (the user stopped
 * marketing messages, a number not on WhatsApp) is recorded and not retried; WhatsApp unreachable or failing
 * throws, and the job queue tries again.
 */
export async function sendCartWhatsAppReminder(deps: Deps, id: string, now = new Date()) {
  const config = whatsAppConfig(deps.env);
  if (!config?.templates.cartReminder) return;
  const template = config.templates.cartReminder;
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(leftCarts).where(eq(leftCarts.id, id)).for("update");
    if (!row || row.whatsappSentAt || row.whatsappRefused) return;
    if (row.closedReason === "ordered" || row.closedReason === "emptied") return;
    const settings = await readReminderSettings(tx);
    if (!settings.enabled) return;

    const consent = row.userId
      ? await accountWhatsAppConsent(tx, row.userId)
      : row.mobile
        ? await whatsAppConsentOf(tx, row.mobile)
        : null;
    if (!consent?.consented) return;

    const { email, name } = await contactOfLeftCart(tx, row);
    const ordered = await tx.execute(sql`
      select 1 from orders
       where (${row.userId ? sql`user_id = ${row.userId} or ` : sql``}${email ? sql`lower(guest_email) = ${email} or ` : sql``}ship_phone = ${consent.mobile})
         and created_at >= ${row.touchedAt.toISOString()}
       limit 1`);
    if (ordered.rows.length > 0) return;

    const named = await linesOfLeftCart(tx, row);
    if (named.length === 0) return;

    if (await remindedLately(tx, row.subject, id, leftCarts.whatsappSentAt, now)) return;

    // The link works at least as long as the mail's does; the code, if the mail made one, comes back with it.
    const linkEnds = new Date(now.getTime() + LINK_DAYS * DAY_MS);
    // WhatsApp refuses a parameter with a new line, a tab or more than four spaces in a row.
    const lineText = named
      .map((line) => `${line.name} × ${line.quantity}`)
      .join(", ")
      .replace(/\s+/g, " ")
      .slice(0, 500);
    try {
      const messageId = await sendTemplate(config, {
        to: whatsAppNumber(consent.mobile),
        template,
        bodyParameters: [name?.split(" ")[0] || "Hello", lineText, deps.env.SHOP_NAME],
        urlSuffixes: [
          restoreSuffix(deps.env, deps.authSecret, id, linkEnds),
          whatsAppUnsubscribeQuery(deps.authSecret, consent.mobile),
        ],
      });
      await tx
        .update(leftCarts)
        .set({ whatsappSentAt: now, whatsappMessageId: messageId })
        .where(eq(leftCarts.id, id));
    } catch (caught) {
      const error = caught as WhatsAppError;
      if (!isRefusal(error)) throw error;
      log.warn({ leftCart: id, err: serializeError(error) }, "WhatsApp refused a cart reminder");
      await tx
        .update(leftCarts)
        .set({ whatsappRefused: error.message.slice(0, 300) })
        .where(eq(leftCarts.id, id));
      // The shopper told WhatsApp to stop the shop's marketing: that is a no, kept as theirs.
      if (error.metaCode === STOPPED_MARKETING) {
        await recordWhatsAppConsent(tx, {
          mobile: consent.mobile,
          userId: null,
          consented: false,
          source: "whatsapp",
        });
      }
    }
  });
}

/**
 * A cart reminder WhatsApp accepted and then could not deliver, as the webhook's statuses[] tell it: recorded
 * on its left cart as refused, and Meta's "the user stopped marketing messages" (131050) kept as the shopper's
 * no for that number. Returns whether the message was a cart reminder.
 */
export async function applyCartWhatsAppFailure(
  db: Db,
  failure: { messageId: string; code: number | null; title: string | null },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: leftCarts.id, userId: leftCarts.userId, mobile: leftCarts.mobile })
      .from(leftCarts)
      .where(eq(leftCarts.whatsappMessageId, failure.messageId))
      .for("update");
    if (!row) return false;
    const why = `${failure.code ?? "no code"}${failure.title ? `: ${failure.title}` : ""}`;
    await tx
      .update(leftCarts)
      .set({ whatsappRefused: `WhatsApp could not deliver it (${why})`.slice(0, 300) })
      .where(eq(leftCarts.id, row.id));
    if (failure.code === STOPPED_MARKETING) {
      const consent = row.userId ? await accountWhatsAppConsent(tx, row.userId) : null;
      const mobile = consent?.mobile ?? row.mobile;
      if (mobile) {
        await recordWhatsAppConsent(tx, { mobile, userId: null, consented: false, source: "whatsapp" });
      }
    }
    return true;
  });
}

async function percentOf(tx: Tx, code: string): Promise<number> {
  const [row] = await tx
    .select({ percent: discountCodes.percent })
    .from(discountCodes)
    .where(eq(discountCodes.code, code));
  return row?.percent ?? 0;
}

/**
 * Offers the sweep once a minute while the shop runs; every instance offers the same minute's job under one
 * key, so one worker runs it. Returns the function that stops it.
 */
export function scheduleCartReminderSweep(deps: Pick<Deps, "db">): () => void {
  const offer = () => {
    const minute = new Date().toISOString().slice(0, 16);
    enqueueJobs(deps.db, [
      { kind: CART_REMINDER_SWEEP_JOB, payload: {}, key: `${CART_REMINDER_SWEEP_JOB}:${minute}` },
    ]).catch((error) => log.warn({ err: serializeError(error) }, "could not queue the cart reminder sweep"));
  };
  offer();
  const timer = setInterval(offer, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
