import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from "react-router";
import {
  ADMIN_MESSAGE_FILTERS,
  type AdminMessageFilter,
  type AdminMessagePage,
} from "../../common/contact.ts";
import { AdminFrame, AdminList, FilterTabs } from "../components/admin-frame.tsx";
import { AdminMessageCard } from "../features/messages/admin-message-card.tsx";
import { runAdminAction } from "../lib/admin-data.ts";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { type ListPosition, listPositionOf } from "../lib/list-position.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const filter =
    ADMIN_MESSAGE_FILTERS.find((option) => option === url.searchParams.get("filter")) ?? "unread";
  await requireAdminUser(request);
  const page = await api<AdminMessagePage>(`/admin/messages${toQuery({ filter, ...listPositionOf(url) })}`);
  return { page, filter };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const intent = String(form.get("intent") ?? "");
  const path = `/admin/messages/${encodeURIComponent(id)}`;
  return runAdminAction(id, intent, async () => {
    if (intent === "reply") {
      await api(`${path}/replies`, { method: "POST", body: { message: String(form.get("message") ?? "") } });
      return "Reply sent by e-mail.";
    }
    const read = form.get("read") === "true";
    await api(`${path}/read`, { method: "PUT", body: { read } });
    return read ? "Marked as read." : "Marked as unread.";
  });
}

export function Component() {
  const { page, filter } = useLoaderData<typeof loader>();
  const href = (option: AdminMessageFilter, position: ListPosition = {}) =>
    `/admin/messages${toQuery({ filter: option === "unread" ? undefined : option, ...position })}`;
  return (
    <AdminFrame title="Messages from the contact form">
      <FilterTabs
        label="Show messages"
        current={filter}
        options={[
          { value: "unread", label: "Unread", count: page.unreadCount, href: href("unread") },
          { value: "all", label: "All", count: page.allCount, href: href("all") },
        ]}
      />
      <AdminList
        page={page}
        empty={filter === "unread" ? "No unread messages. All caught up." : "No messages yet."}
        hrefFor={(position) => href(filter, position)}
      >
        {(message) => <AdminMessageCard message={message} />}
      </AdminList>
    </AdminFrame>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: messages") };
