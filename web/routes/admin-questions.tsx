import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from "react-router";
import {
  ADMIN_QUESTION_FILTERS,
  type AdminQuestionFilter,
  type AdminQuestionPage,
} from "../../common/questions.ts";
import { AdminFrame, FilterTabs, Pager } from "../components/admin-frame.tsx";
import { AdminQuestionCard } from "../features/questions/admin-question-card.tsx";
import { loadAdminData, runAdminAction } from "../lib/admin-data.ts";
import { api, toQuery } from "../lib/api.ts";

const FILTER_LABELS: Record<AdminQuestionFilter, string> = {
  all: "All",
  unanswered: "Awaiting answer",
  answered: "Answered",
  hidden: "Hidden",
};

function readFilter(url: URL) {
  const status = url.searchParams.get("status");
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const filter = ADMIN_QUESTION_FILTERS.find((option) => option === status) ?? "all";
  return { filter, page };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { filter, page } = readFilter(new URL(request.url));
  const result = await loadAdminData<AdminQuestionPage>(
    request,
    `/admin/questions${toQuery({ status: filter, page })}`,
  );
  return { result, filter };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const intent = String(form.get("intent") ?? "");
  const path = `/admin/questions/${encodeURIComponent(id)}`;
  return runAdminAction(id, intent, async () => {
    if (intent === "answer") {
      const { customerNotified } = await api<{ customerNotified: boolean }>(`${path}/answer`, {
        method: "PUT",
        body: { answer: String(form.get("answer") ?? "") },
      });
      return customerNotified ? "Answer published. The customer has been e-mailed." : "Answer saved.";
    }
    const hidden = intent === "hide";
    await api(`${path}/visibility`, { method: "PUT", body: { hidden } });
    return hidden ? "Hidden from the product page." : "Shown on the product page again.";
  });
}

export function Component() {
  const { result, filter } = useLoaderData<typeof loader>();
  const page = result.forbidden ? undefined : result.data;
  const href = (status: AdminQuestionFilter, pageNumber = 1) =>
    `/admin/questions${toQuery({ status: status === "all" ? undefined : status, page: pageNumber > 1 ? pageNumber : undefined })}`;
  return (
    <AdminFrame title="Customer questions" forbidden={result.forbidden}>
      {page && (
        <>
          <FilterTabs
            label="Show questions"
            current={filter}
            options={ADMIN_QUESTION_FILTERS.map((option) => ({
              value: option,
              label: FILTER_LABELS[option],
              count:
                option === "all"
                  ? page.counts.unanswered + page.counts.answered + page.counts.hidden
                  : page.counts[option],
              href: href(option),
            }))}
          />
          {page.items.length === 0 ? (
            <p className="text-stone-700 dark:text-stone-300">No questions here.</p>
          ) : (
            <ul className="space-y-4">
              {page.items.map((question) => (
                <li key={question.id}>
                  <AdminQuestionCard question={question} />
                </li>
              ))}
            </ul>
          )}
          <Pager
            page={page.page}
            total={page.total}
            pageSize={page.pageSize}
            hrefFor={(n) => href(filter, n)}
          />
        </>
      )}
    </AdminFrame>
  );
}
