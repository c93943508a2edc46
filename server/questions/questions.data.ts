import { and, asc, count, desc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type {
  AdminQuestion,
  AdminQuestionFilter,
  AdminQuestionPage,
  MyQuestion,
  PublicQuestion,
} from "../../common/questions.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
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

/**
 * Staff's list: questions waiting for an answer first (the longest-waiting on top), then answered ones
 * (latest answer first), then hidden ones.
 */
export async function listQuestionsForAdmin(
  db: Db,
  filter: AdminQuestionFilter,
  page: number,
): Promise<AdminQuestionPage> {
  const where = filter === "all" ? undefined : adminFilters[filter];
  const group = sql`case when ${questions.hidden} then 2 when ${questions.answer} is null then 0 else 1 end`;
  const [rows, totals] = await Promise.all([
    selectQuestions(db)
      .where(where)
      .orderBy(
        asc(group),
        sql`case when ${questions.answer} is null then ${questions.createdAt} end asc`,
        desc(questions.answeredAt),
        desc(questions.createdAt),
        asc(questions.id),
      )
      .limit(ADMIN_QUESTION_PAGE_SIZE)
      .offset((page - 1) * ADMIN_QUESTION_PAGE_SIZE),
    db
      .select({
        unanswered: count(sql`case when ${adminFilters.unanswered} then 1 end`),
        answered: count(sql`case when ${adminFilters.answered} then 1 end`),
        hidden: count(sql`case when ${adminFilters.hidden} then 1 end`),
      })
      .from(questions),
  ]);
  const counts = totals[0] ?? { unanswered: 0, answered: 0, hidden: 0 };
  const total = filter === "all" ? counts.unanswered + counts.answered + counts.hidden : counts[filter];
  return { items: rows.map(presentForAdmin), counts, total, page, pageSize: ADMIN_QUESTION_PAGE_SIZE };
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
