import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from "react-router";
import {
  ADMIN_QUESTION_FILTERS,
  type AdminQuestionFilter,
  type AdminQuestionPage,
} from "../../common/questions.ts";
import { AdminFrame, AdminList, FilterTabs } from "../components/admin-frame.tsx";
import { AdminQuestionCard } from "../features/questions/admin-question-card.tsx";
import { runAdminAction } from "../lib/admin-data.ts";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { type ListPosition, listPositionOf } from "../lib/list-position.ts";
import { requireAdminUser } from "../lib/session.ts";

const FILTER_LABELS: Record<AdminQuestionFilter, string> = {
  all: "All",
  unanswered: "Awaiting answer",
  answered: "Answered",
  hidden: "Hidden",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const filter = ADMIN_QUESTION_FILTERS.find((option) => option === url.searchParams.get("status")) ?? "all";
  await requireAdminUser(request);
  const page = await api<AdminQuestionPage>(
    `/admin/questions${toQuery({ status: filter, ...listPositionOf(url) })}`,
  );
  return { page, filter };
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
  const { page, filter } = useLoaderData<typeof loader>();
  const href = (status: AdminQuestionFilter, position: ListPosition = {}) =>
    `/admin/questions${toQuery({ status: status === "all" ? undefined : status, ...position })}`;
  return (
    <AdminFrame title="Customer questions">
      <FilterTabs
        label="Show questions"
        current={filter}
        options={ADMIN_QUESTION_FILTERS.map((option) => ({
          value: option,
          label: FILTER_LABELS[option],
          count: page.counts[option],
          href: href(option),
        }))}
      />
      <AdminList page={page} empty="No questions here." hrefFor={(position) => href(filter, position)}>
        {(question) => <AdminQuestionCard question={question} />}
      </AdminList>
    </AdminFrame>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: questions") };
