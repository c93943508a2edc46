import { useLoaderData } from "react-router";
import { ContentPageView, type loader } from "./content-page.tsx";

export { loader } from "./content-page.tsx";

/** The contact text from content/pages/contact.md; the contact form is the page's child, below it. */
export function Component() {
  return <ContentPageView page={useLoaderData<typeof loader>()} />;
}
