import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { MyQuestion } from "../../common/questions.ts";
import { MyQuestionList } from "../features/questions/my-question-list.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireSessionUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSessionUser(request);
  const { items } = await api<{ items: MyQuestion[] }>("/questions/mine");
  return { questions: items };
}

export function Component() {
  const { questions } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="my-questions-heading" className="mx-auto max-w-3xl">
      <h1 id="my-questions-heading" className="mb-2 font-serif text-2xl font-semibold">
        My questions
      </h1>
      <p className="mb-6 text-stone-700 dark:text-stone-300">
        Questions you asked about our products. We e-mail you when one is answered.
      </p>
      <MyQuestionList questions={questions} />
    </section>
  );
}

export const handle: RouteHandle = { meta: privatePage("Your questions") };
