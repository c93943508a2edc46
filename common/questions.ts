import type { KeysetPage, ListTotal } from "./lists.ts";
/** Product questions: limits and response shapes shared by the API and the web app. */

export const QUESTION_MIN_LENGTH = 10;
export const QUESTION_MAX_LENGTH = 1000;
export const ANSWER_MAX_LENGTH = 2000;

export type QuestionStatus = "awaiting-answer" | "answered";

export const QUESTION_STATUS_LABELS: Record<QuestionStatus, string> = {
  "awaiting-answer": "Awaiting answer",
  answered: "Answered",
};

/** An answered question as everyone sees it on the product page. */
export type PublicQuestion = {
  id: string;
  question: string;
  answer: string;
  askedAt: string;
  answeredAt: string;
};

/** A question as its asker sees it in /questions. */
export type MyQuestion = {
  id: string;
  product: { slug: string; name: string };
  question: string;
  status: QuestionStatus;
  answer: string | null;
  /** Hidden by staff: not on the product page. */
  hidden: boolean;
  askedAt: string;
  answeredAt: string | null;
};

/** Staff also see who asked; null once the asker's account is deleted. */
export type AdminQuestion = MyQuestion & { asker: { name: string; email: string } | null };

export const ADMIN_QUESTION_FILTERS = ["all", "unanswered", "answered", "hidden"] as const;
export type AdminQuestionFilter = (typeof ADMIN_QUESTION_FILTERS)[number];

/** Staff's list, newest first by keyset; each tab's count stops at 10,000. */
export type AdminQuestionPage = KeysetPage<AdminQuestion> & {
  counts: Record<AdminQuestionFilter, ListTotal>;
};
