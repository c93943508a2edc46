import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from "react-router";
import {
  ADMIN_MESSAGE_FILTERS,
  type AdminMessageFilter,
  type AdminMessagePage,
} from "../../common/contact.ts";
import { AdminFrame, FilterTabs, Pager } from "../components/admin-frame.tsx";
import { AdminMessageCard } from "../features/messages/admin-message-card.tsx";
import { loadAdminData, runAdminAction } from "../lib/admin-data.ts";
import { api, toQuery } from "../lib/api.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const filter =
    ADMIN_MESSAGE_FILTERS.find((option) => option === url.searchParams.get("filter")) ?? "unread";
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const result = await loadAdminData<AdminMessagePage>(
    request,
    `/admin/messages${toQuery({ filter, page })}`,
  );
  return { result, filter };
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
  const { result, filter } = useLoaderData<typeof loader>();
  const page = result.forbidden ? undefined : result.data;
  const href = (option: AdminMessageFilter, pageNumber = 1) =>
    `/admin/messages${toQuery({ filter: option === "unread" ? undefined : option, page: pageNumber > 1 ? pageNumber : undefined })}`;
  return (
    <AdminFrame title="Messages from the contact form" forbidden={result.forbidden}>
      {page && (
        <>
          <FilterTabs
            label="Show messages"
            current={filter}
            options={[
              { value: "unread", label: "Unread", count: page.unreadCount, href: href("unread") },
              { value: "all", label: "All", count: page.allCount, href: href("all") },
            ]}
          />
          {page.items.length === 0 ? (
            <p className="text-stone-700 dark:text-stone-300">
              {filter === "unread" ? "No unread messages. All caught up." : "No messages yet."}
            </p>
          ) : (
            <ul className="space-y-4">
              {page.items.map((message) => (
                <li key={message.id}>
                  <AdminMessageCard message={message} />
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
