import { type FormEvent, useEffect, useId, useState } from "react";
import { Link } from "react-router";
import type { SessionUser } from "../../../common/account.ts";
import { formatDate } from "../../../common/india-time.ts";
import { type PublicQuestion, QUESTION_MAX_LENGTH, QUESTION_MIN_LENGTH } from "../../../common/questions.ts";
import { withRedirect } from "../../../common/redirect-target.ts";
import { textLength } from "../../../common/schemas/text.ts";
import { Button } from "../../components/button.tsx";
import { controlClass, errorTextClass, FieldError, hintClass, labelClass } from "../../components/field.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { fetchSessionUser } from "../../lib/session-user.ts";

type Loaded = { questions: PublicQuestion[]; user: SessionUser | null };

/**
 * Questions and answers on a product page: the answered questions for everyone, and a form for a signed-in
 * customer to ask. It loads its own data, so it can sit on any product page layout.
 */
export function ProductQuestions({ slug }: { slug: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setLoaded(null);
    setLoadError(null);
    Promise.all([
      api<{ items: PublicQuestion[] }>(`/questions?product=${encodeURIComponent(slug)}`),
      fetchSessionUser(),
    ])
      .then(([{ items }, user]) => current && setLoaded({ questions: items, user }))
      .catch((error: unknown) => current && setLoadError(isApiError(error) ? error.message : String(error)));
    return () => {
      current = false;
    };
  }, [slug]);

  return (
    <section aria-labelledby="questions-heading" className="mt-10">
      <h2 id="questions-heading" className="font-serif text-2xl font-semibold">
        Questions and answers
      </h2>
      {loadError && (
        <p role="alert" className={errorTextClass}>
          The questions could not be loaded: {loadError}
        </p>
      )}
      {!loaded && !loadError && <p className={hintClass}>Loading questions…</p>}
      {loaded && (
        <>
          {loaded.questions.length === 0 ? (
            <p className="mt-2 text-stone-700 dark:text-stone-300">No questions have been answered yet.</p>
          ) : (
            <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800">
              {loaded.questions.map((question) => (
                <li key={question.id} className="py-4">
                  <p className="font-medium">
                    <span className="mr-1 font-semibold text-brand-700 dark:text-brand-100">Q:</span>
                    <span className="whitespace-pre-line break-words">{question.question}</span>
                  </p>
                  <p className="mt-2 text-stone-800 dark:text-stone-200">
                    <span className="mr-1 font-semibold text-brand-700 dark:text-brand-100">A:</span>
                    <span className="whitespace-pre-line break-words">{question.answer}</span>
                  </p>
                  <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                    Answered by the shop on {formatDate(question.answeredAt)}
                  </p>
                </li>
              ))}
            </ul>
          )}
          {loaded.user ? (
            <AskQuestionForm slug={slug} />
          ) : (
            <p className="mt-4">
              <Link
                to={withRedirect("/login", `/product/${slug}`)}
                className="font-medium text-brand-700 underline dark:text-brand-100"
              >
                Sign in to ask a question
              </Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}

function AskQuestionForm({ slug }: { slug: string }) {
  const id = useId();
  const [question, setQuestion] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const length = textLength(question);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const meaningful = textLength(question.trim());
    if (meaningful < QUESTION_MIN_LENGTH) {
      setError(
        `Your question must be at least ${QUESTION_MIN_LENGTH} characters long (it has ${meaningful}).`,
      );
      return;
    }
    setSending(true);
    setError(null);
    try {
      await api("/questions", { method: "POST", body: { productSlug: slug, question } });
      setQuestion("");
      setAsked(true);
    } catch (caught) {
      setError(isApiError(caught) ? (caught.fields?.question ?? caught.message) : String(caught));
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={submit} className="mt-6 max-w-2xl" noValidate>
      <label htmlFor={`${id}-question`} className={labelClass}>
        Ask a question about this product
      </label>
      <textarea
        id={`${id}-question`}
        name="question"
        rows={3}
        value={question}
        onChange={(event) => {
          setQuestion(event.target.value);
          setAsked(false);
        }}
        disabled={sending}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className={controlClass}
      />
      <p id={`${id}-hint`} className={hintClass}>
        {QUESTION_MIN_LENGTH} to {QUESTION_MAX_LENGTH} characters ({length} written). We answer by e-mail and
        publish the answer here.
      </p>
      <FieldError id={`${id}-error`} error={error} alert />
      <Button type="submit" disabled={sending} size="sm" className="mt-3">
        {sending ? "Sending…" : "Ask question"}
      </Button>
      <p role="status" className="mt-3 text-brand-800 dark:text-brand-100">
        {asked && (
          <>
            Thank you! We will e-mail you when your question is answered. You can follow it in{" "}
            <Link to="/questions" className="font-medium underline">
              My Questions
            </Link>
            .
          </>
        )}
      </p>
    </form>
  );
}
