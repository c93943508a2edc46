import { and, desc, eq, isNotNull, isNull, type SQL } from "drizzle-orm";
import type {
  AdminQuestion,
  AdminQuestionFilter,
  AdminQuestionPage,
  MyQuestion,
  PublicQuestion,
} from "../../common/questions.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { countRowsUpTo, type KeysetRequest, keysetQuery } from "../db/keyset.ts";
import { products, questions, users } from "../db/schema.ts";
import { takeAccountAllowance } from "../throttles/account-throttle.ts";

export const ADMIN_QUESTION_PAGE_SIZE = 50;

const questionColumns = {
  id: questions.id,
  question: questions.body,
  answer: questions.answer,
  hidden: questions.hidden,
  askedAt: questions.createdAt,
  answeredAt: questions.answeredAt,
  productSlug: products.slug,
  productName: products.name,
  askerId: questions.userId,
  askerName: users.name,
  askerEmail: users.email,
};

type QuestionRow = {
  id: string;
  question: string;
  answer: string | null;
  hidden: boolean;
  askedAt: Date;
  answeredAt: Date | null;
  productSlug: string;
  productName: string;
  askerName: string | null;
  askerEmail: string | null;
};

function presentMine(row: QuestionRow): MyQuestion {
  return {
    id: row.id,
    product: { slug: row.productSlug, name: row.productName },
    question: row.question,
    status: row.answer === null ? "awaiting-answer" : "answered",
    answer: row.answer,
    hidden: row.hidden,
    askedAt: row.askedAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
  };
}

function presentForAdmin(row: QuestionRow): AdminQuestion {
  const asker = row.askerEmail === null ? null : { name: row.askerName ?? "", email: row.askerEmail };
  return { ...presentMine(row), asker };
}

function selectQuestions(db: Db) {
  return db
    .select(questionColumns)
    .from(questions)
    .innerJoin(products, eq(products.slug, questions.productSlug))
    .leftJoin(users, eq(users.id, questions.userId));
}

/**
 * A question from a signed-in customer about an active product; undefined when there is no such product.
 * Counts against the account's question allowance (a 429 past it), in the same transaction.
 */
export async function askQuestion(
  db: Db,
  input: { userId: string; productSlug: string; question: string },
): Promise<MyQuestion | undefined> {
  const created = await db.transaction(async (tx) => {
    const [product] = await tx
      .select({ slug: products.slug })
      .from(products)
      .where(and(eq(products.slug, input.productSlug), eq(products.active, true)));
    if (!product) return undefined;
    await takeAccountAllowance(tx, input.userId, "question");
    const [row] = await tx
      .insert(questions)
      .values({ productSlug: input.productSlug, userId: input.userId, body: input.question })
      .returning({ id: questions.id });
    return row;
  });
  return created && (await getQuestion(db, created.id));
}

export async function getQuestion(db: Db, id: string): Promise<AdminQuestion | undefined> {
  const [row] = await selectQuestions(db).where(eq(questions.id, id));
  return row && presentForAdmin(row);
}

/** What everyone sees on a product page: answered questions staff have not hidden, latest answers first. */
export async function listAnsweredQuestions(db: Db, productSlug: string): Promise<PublicQuestion[]> {
  const rows = await db
    .select({
      id: questions.id,
      question: questions.body,
      answer: questions.answer,
      askedAt: questions.createdAt,
      answeredAt: questions.answeredAt,
    })
    .from(questions)
    .where(
      and(eq(questions.productSlug, productSlug), isNotNull(questions.answer), eq(questions.hidden, false)),
    )
    .orderBy(desc(questions.answeredAt), desc(questions.id))
    .limit(100);
  return rows.flatMap((row) =>
    row.answer === null || row.answeredAt === null
      ? []
      : [
          {
            id: row.id,
            question: row.question,
            answer: row.answer,
            askedAt: row.askedAt.toISOString(),
            answeredAt: row.answeredAt.toISOString(),
          },
        ],
  );
}

/** The customer's own questions, newest first; nobody else's. */
export async function listMyQuestions(db: Db, userId: string): Promise<MyQuestion[]> {
  const rows = await selectQuestions(db)
    .where(eq(questions.userId, userId))
    .orderBy(desc(questions.createdAt), desc(questions.id));
  return rows.map(presentMine);
}

const adminFilters: Record<Exclude<AdminQuestionFilter, "all">, SQL | undefined> = {
  unanswered: and(isNull(questions.answer), eq(questions.hidden, false)),
  answered: and(isNotNull(questions.answer), eq(questions.hidden, false)),
  hidden: eq(questions.hidden, true),
};

const QUESTION_KEYS = { at: questions.createdAt, id: questions.id };

const countOf = (db: Db, where: SQL | undefined) => countRowsUpTo(db, questions, where);

/**
 * Staff's list, all questions or one tab's, newest first by keyset (docs/decisions/034); each tab's
 * condition matches a partial index on (created_at, id), and each count stops at 10,000.
 */
export async function listQuestionsForAdmin(
  db: Db,
  query: { status: AdminQuestionFilter } & KeysetRequest,
): Promise<AdminQuestionPage> {
  const where = query.status === "all" ? undefined : adminFilters[query.status];
  const keyset = keysetQuery(QUESTION_KEYS, query);
  const [rows, all, unanswered, answered, hidden] = await Promise.all([
    db
      .select({ ...questionColumns, cursorAt: keyset.cursorAt })
      .from(questions)
      .innerJoin(products, eq(products.slug, questions.productSlug))
      .leftJoin(users, eq(users.id, questions.userId))
      .where(and(where, keyset.where))
      .orderBy(...keyset.orderBy)
      .limit(ADMIN_QUESTION_PAGE_SIZE + 1),
    countOf(db, undefined),
    countOf(db, adminFilters.unanswered),
    countOf(db, adminFilters.answered),
    countOf(db, adminFilters.hidden),
  ]);
  const page = keyset.page(rows, ADMIN_QUESTION_PAGE_SIZE, (row) => row.id);
  const counts = { all, unanswered, answered, hidden };
  return {
    items: page.items.map(presentForAdmin),
    counts,
    total: counts[query.status],
    pageSize: ADMIN_QUESTION_PAGE_SIZE,
    ...page.cursors,
  };
}

/**
 * Sets or edits the answer. `firstAnswer` says whether the question was waiting until now, which is when
 * the asker is e-mailed; the row lock keeps two staff answering at once from both counting as the first.
 */
export async function answerQuestion(
  db: Db,
  input: { id: string; answer: string; adminId: string; actor: AuditActor },
): Promise<{ question: AdminQuestion; firstAnswer: boolean } | undefined> {
  const firstAnswer = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ answeredAt: questions.answeredAt, answer: questions.answer })
      .from(questions)
      .where(eq(questions.id, input.id))
      .for("update");
    if (!current) return undefined;
    await tx
      .update(questions)
      .set({ answer: input.answer, answeredAt: current.answeredAt ?? new Date(), answeredBy: input.adminId })
      .where(eq(questions.id, input.id));
    const [before, after] = [{ answer: current.answer }, { answer: input.answer }];
    await recordAudit(tx, {
      actor: input.actor,
      entityType: "question",
      entityId: input.id,
      action: "answer",
      before,
      after,
    });
    return current.answeredAt === null;
  });
  if (firstAnswer === undefined) return undefined;
  const question = await getQuestion(db, input.id);
  return question && { question, firstAnswer };
}

export async function setQuestionHidden(
  db: Db,
  id: string,
  hidden: boolean,
  actor: AuditActor,
): Promise<AdminQuestion | undefined> {
  const updated = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ hidden: questions.hidden })
      .from(questions)
      .where(eq(questions.id, id))
      .for("update");
    if (!current) return undefined;
    await tx.update(questions).set({ hidden }).where(eq(questions.id, id));
    await recordAudit(tx, {
      actor,
      entityType: "question",
      entityId: id,
      action: "visibility",
      before: current,
      after: { hidden },
    });
    return { id };
  });
  return updated && getQuestion(db, updated.id);
}
