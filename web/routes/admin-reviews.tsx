import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { type AdminReviewPage, REVIEW_STATUSES, type ReviewStatus } from "../../common/reviews.ts";
import { AdminFrame, AdminList, FilterTabs } from "../components/admin-frame.tsx";
import { AdminReviewCard } from "../features/reviews/admin-review-card.tsx";
import { runAdminAction } from "../lib/admin-data.ts";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { type ListPosition, listPositionOf } from "../lib/list-position.ts";
import { requireAdminUser } from "../lib/session.ts";

const STATUS_LABELS: Record<ReviewStatus, string> = {
  pending: "Awaiting approval",
  approved: "Published",
  rejected: "Rejected",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const status = REVIEW_STATUSES.find((option) => option === url.searchParams.get("status")) ?? "pending";
  await requireAdminUser(request);
  const page = await api<AdminReviewPage>(`/admin/reviews${toQuery({ status, ...listPositionOf(url) })}`);
  return { page, status };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const intent = String(form.get("intent") ?? "");
  const path = `/admin/reviews/${encodeURIComponent(id)}`;
  return runAdminAction(id, intent, async () => {
    switch (intent) {
      case "approve":
        await api(`${path}/approve`, { method: "POST" });
        return "Approved: the review is on the product page.";
      case "reject": {
        const { authorNotified } = await api<{ authorNotified: boolean }>(`${path}/reject`, {
          method: "POST",
          body: { reason: String(form.get("reason") ?? "") },
        });
        return authorNotified ? "Rejected. The author has been e-mailed the reason." : "Rejected.";
      }
      case "reply":
        await api(`${path}/reply`, { method: "PUT", body: { reply: String(form.get("reply") ?? "") } });
        return "Reply published under the review.";
      case "remove-reply":
        await api(`${path}/reply`, { method: "DELETE" });
        return "Reply removed.";
      default:
        throw new Error(`Unknown review action: ${intent}`);
    }
  });
}

export function Component() {
  const { page, status } = useLoaderData<typeof loader>();
  const href = (option: ReviewStatus, position: ListPosition = {}) =>
    `/admin/reviews${toQuery({ status: option === "pending" ? undefined : option, ...position })}`;
  return (
    <AdminFrame title="Product reviews">
      <FilterTabs
        label="Show reviews"
        current={status}
        options={REVIEW_STATUSES.map((option) => ({
          value: option,
          label: STATUS_LABELS[option],
          count: page.counts[option],
          href: href(option),
        }))}
      />
      <AdminList
        page={page}
        empty={status === "pending" ? "No reviews are waiting for approval." : "No reviews here."}
        hrefFor={(position) => href(status, position)}
      >
        {(review) => <AdminReviewCard review={review} />}
      </AdminList>
    </AdminFrame>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: reviews") };
