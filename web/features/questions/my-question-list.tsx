import { Link } from "react-router";
import { formatDate } from "../../../common/india-time.ts";
import { type MyQuestion, QUESTION_STATUS_LABELS } from "../../../common/questions.ts";
import { cardClass, Pill } from "../../components/card.tsx";

/** The customer's own questions with where each stands, and the answers. */
export function MyQuestionList({ questions }: { questions: MyQuestion[] }) {
  if (questions.length === 0) {
    return (
      <p className="text-stone-700 dark:text-stone-300">
        You have not asked any questions yet. Ask one on any product's page, and the answer will appear here.
      </p>
    );
  }
  return (
    <ul className="space-y-4">
      {questions.map((question) => (
        <li key={question.id}>
          <article className={cardClass}>
            <header className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <h2 className="font-semibold">
                  <Link to={`/product/${question.product.slug}`} className="underline">
                    {question.product.name}
                  </Link>
                </h2>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  Asked on {formatDate(question.askedAt)}
                </p>
              </div>
              <Pill tone={question.status === "answered" ? "brand" : "amber"} size="text-sm">
                {QUESTION_STATUS_LABELS[question.status]}
              </Pill>
            </header>
            <p className="mt-3 whitespace-pre-line break-words">{question.question}</p>
            {question.answer !== null && question.answeredAt !== null && (
              <div className="mt-3 rounded-md border-l-4 border-brand-600 bg-stone-50 p-3 dark:bg-stone-950">
                <p className="text-sm font-semibold">Our answer · {formatDate(question.answeredAt)}</p>
                <p className="mt-1 whitespace-pre-line break-words">{question.answer}</p>
              </div>
            )}
            {question.hidden && (
              <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
                This question is not shown on the product page.
              </p>
            )}
          </article>
        </li>
      ))}
    </ul>
  );
}
