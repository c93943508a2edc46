import { useId } from "react";
import { Form, Link } from "react-router";
import { formatDateTime } from "../../../common/india-time.ts";
import { type AdminQuestion, ANSWER_MAX_LENGTH, QUESTION_STATUS_LABELS } from "../../../common/questions.ts";
import { Button } from "../../components/button.tsx";
import { cardClass, Pill } from "../../components/card.tsx";
import { errorTextClass, Field, Textarea } from "../../components/field.tsx";
import { useAdminAction } from "../../lib/admin-data.ts";

/** One question in the staff queue: read it, answer or edit the answer, hide or show it. */
export function AdminQuestionCard({ question }: { question: AdminQuestion }) {
  const id = useId();
  const { busy, result } = useAdminAction(question.id);
  const answerError =
    result && !result.ok && result.intent === "answer" ? (result.fields?.answer ?? result.error) : undefined;

  return (
    <article className={cardClass} aria-labelledby={`${id}-product`}>
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={`${id}-product`} className="font-semibold">
            <Link to={`/product/${question.product.slug}`} className="underline">
              {question.product.name}
            </Link>
          </h2>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Asked {formatDateTime(question.askedAt)}
            {question.asker ? (
              <>
                {" "}
                by {question.asker.name} <span className="break-all">({question.asker.email})</span>
              </>
            ) : (
              " by a deleted account"
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Pill tone={question.status === "answered" ? "brand" : "amber"}>
            {QUESTION_STATUS_LABELS[question.status]}
          </Pill>
          {question.hidden && <Pill tone="stone">Hidden</Pill>}
        </div>
      </header>
      <p className="mt-3 whitespace-pre-line break-words">{question.question}</p>

      <Form method="post" preventScrollReset className="mt-4">
        <input type="hidden" name="id" value={question.id} />
        <Field
          id={`${id}-answer`}
          label={question.answer === null ? "Answer" : "Answer (published)"}
          error={answerError}
          alert
        >
          <Textarea
            name="answer"
            rows={3}
            maxLength={ANSWER_MAX_LENGTH}
            defaultValue={question.answer ?? ""}
            key={question.answer ?? ""}
            required
            disabled={busy}
          />
        </Field>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="answer" disabled={busy} size="sm">
            {question.answer === null ? "Publish answer" : "Update answer"}
          </Button>
          <Button
            type="submit"
            name="intent"
            value={question.hidden ? "show" : "hide"}
            formNoValidate
            disabled={busy}
            variant="secondary"
            size="sm"
          >
            {question.hidden ? "Show on product page" : "Hide question"}
          </Button>
        </div>
        {result && !result.ok && result.intent !== "answer" && (
          <p role="alert" className={errorTextClass}>
            {result.error}
          </p>
        )}
      </Form>
    </article>
  );
}
