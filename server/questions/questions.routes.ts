import { Hono } from "hono";
import { z } from "zod";
import type { AdminQuestion } from "../../common/questions.ts";
import {
  adminQuestionQuerySchema,
  answerQuestionSchema,
  askQuestionSchema,
  productQuestionsQuerySchema,
  questionVisibilitySchema,
} from "../../common/schemas/questions.ts";
import type { SessionUser } from "../auth/session.ts";
import { adminOnly, requireUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { log, serializeError } from "../log.ts";
import { textToHtml } from "../mail-html.ts";
import { withOwnersShopName } from "../settings/settings.data.ts";
import { validate } from "../validate.ts";
import {
  answerQuestion,
  askQuestion,
  listAnsweredQuestions,
  listMyQuestions,
  listQuestionsForAdmin,
  setQuestionHidden,
} from "./questions.data.ts";

const idParam = validate("param", z.object({ id: z.uuid("is not a valid id") }));
const noSuchQuestion = () => notFound("There is no such question.");

/** Product questions for shoppers: read the answered ones, ask, follow your own. */
export function questionRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono()
    .get("/", validate("query", productQuestionsQuerySchema), async (c) => {
      return c.json({ items: await listAnsweredQuestions(db, c.req.valid("query").product) });
    })
    .get("/mine", async (c) => {
      const user = await requireUser(deps, c);
      return c.json({ items: await listMyQuestions(db, user.id) });
    })
    .post("/", validate("json", askQuestionSchema), async (c) => {
      const user = await requireUser(deps, c);
      const body = c.req.valid("json");
      const question = await askQuestion(db, { userId: user.id, ...body });
      if (!question) throw notFound("No product with that name is in the catalogue.");
      return c.json({ question }, 201);
    });
}

/**
 * The admin role is checked before anything else (401 or 403), so a non-admin learns nothing, not even
 * which inputs would be valid.
 */
type AdminOnly = { Variables: { admin: SessionUser } };

/** Staff: the question queue, answers, hiding. */
export function adminQuestionRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<AdminOnly>()
    .use(adminOnly(deps))
    .get("/", validate("query", adminQuestionQuerySchema), async (c) => {
      return c.json(await listQuestionsForAdmin(db, c.req.valid("query")));
    })
    .put("/:id/answer", idParam, validate("json", answerQuestionSchema), async (c) => {
      const admin = c.get("admin");
      const result = await answerQuestion(db, {
        id: c.req.valid("param").id,
        answer: c.req.valid("json").answer,
        adminId: admin.id,
        actor: admin,
      });
      if (!result) throw noSuchQuestion();
      const customerNotified = result.firstAnswer ? await notifyAsker(deps, result.question) : false;
      return c.json({ question: result.question, customerNotified });
    })
    .put("/:id/visibility", idParam, validate("json", questionVisibilitySchema), async (c) => {
      const question = await setQuestionHidden(
        db,
        c.req.valid("param").id,
        c.req.valid("json").hidden,
        c.get("admin"),
      );
      if (!question) throw noSuchQuestion();
      return c.json({ question });
    });
}

/**
 * The answer is saved whether or not the mail goes out; a mail failure is logged and reported to staff
 * (customerNotified: false) rather than turning a saved answer into an error.
 */
async function notifyAsker({ db, env: shopEnv, mailer }: Deps, question: AdminQuestion): Promise<boolean> {
  if (!question.asker || question.answer === null) return false;
  const env = await withOwnersShopName(db, shopEnv);
  const productUrl = `${env.PUBLIC_URL}/product/${question.product.slug}`;
  const questionsUrl = `${env.PUBLIC_URL}/questions`;
  const greeting = question.asker.name ? `Hello ${question.asker.name},` : "Hello,";
  const text = [
    greeting,
    `You asked about ${question.product.name}:`,
    question.question,
    "Our answer:",
    question.answer,
    `All your questions: ${questionsUrl}\nThe product: ${productUrl}`,
    env.SHOP_NAME,
  ].join("\n\n");
  try {
    await mailer.send({
      to: question.asker.email,
      subject: `Your question about ${question.product.name} has been answered`,
      text,
      html: textToHtml(text),
    });
    return true;
  } catch (error) {
    log.error({ questionId: question.id, err: serializeError(error) }, "question answer e-mail failed");
    return false;
  }
}
