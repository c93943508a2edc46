import { z } from "zod";
import { keysetQueryFields } from "../lists.ts";
import {
  ADMIN_QUESTION_FILTERS,
  ANSWER_MAX_LENGTH,
  QUESTION_MAX_LENGTH,
  QUESTION_MIN_LENGTH,
} from "../questions.ts";
import { slugSchema } from "./catalogue.ts";
import { boundedText } from "./text.ts";

export const questionTextSchema = boundedText("Your question", QUESTION_MIN_LENGTH, QUESTION_MAX_LENGTH);

export const askQuestionSchema = z.object({ productSlug: slugSchema, question: questionTextSchema }).strict();

export const productQuestionsQuerySchema = z.object({ product: slugSchema }).strict();

export const answerQuestionSchema = z
  .object({ answer: boundedText("The answer", 1, ANSWER_MAX_LENGTH) })
  .strict();

export const questionVisibilitySchema = z.object({ hidden: z.boolean() }).strict();

export const adminQuestionQuerySchema = z
  .object({
    status: z.enum(ADMIN_QUESTION_FILTERS).default("all"),
    ...keysetQueryFields,
  })
  .strict();
