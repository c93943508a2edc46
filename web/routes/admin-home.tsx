import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import { requireAdminUser } from "../features/orders/admin-access.ts";
import { AdminDashboard, loadDashboardFigures } from "../features/orders/admin-dashboard.tsx";
import { AdminOrdersNav } from "../features/orders/admin-nav.tsx";
import { RouteError } from "../features/orders/route-error.tsx";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  return loadDashboardFigures();
}

export const ErrorBoundary = RouteError;

export function Component() {
  const figures = useLoaderData<typeof loader>();
  return (
    <div>
      <AdminOrdersNav />
      <h1 className="mb-4 font-serif text-3xl font-semibold">Dashboard</h1>
      <AdminDashboard figures={figures} />
    </div>
  );
}
