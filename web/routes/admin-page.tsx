import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { formatDateTime } from "../../common/india-time.ts";
import {
  type ContentDetail,
  type ContentListItem,
  SLUG_PATTERN,
} from "../../common/schemas/content-pages.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Textarea, TextField } from "../components/field.tsx";
import { ResultMessage, type ResultMessageState } from "../components/result-message.tsx";
import { proseClass } from "../features/content/content-article.tsx";
import { fillHtmlPlaceholders } from "../features/content/placeholders.ts";
import { api, isApiError } from "../lib/api.ts";
import { useShopData } from "../lib/shop-data.ts";
import { type FieldErrors, useFormSave } from "../lib/use-form-save.ts";

/** Where the shop shows a page or an article. */
export const shopPath = (item: Pick<ContentListItem, "kind" | "slug">) =>
  item.kind === "post" ? `/blog/${item.slug}` : `/${item.slug}`;

export function StatusBadge({ published }: { published: boolean }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        published
          ? "bg-brand-50 text-brand-800 dark:bg-brand-900 dark:text-brand-50"
          : "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
      }`}
    >
      {published ? "Published" : "Draft"}
    </span>
  );
}

type Draft = {
  slug: string;
  title: string;
  description: string;
  author: string;
  body: string;
  publishedOn: string;
};

const draftOf = (page: ContentDetail | null): Draft => ({
  slug: page?.slug ?? "",
  title: page?.title ?? "",
  description: page?.description ?? "",
  author: page?.author ?? "The {shopName} team",
  body: page?.body ?? "",
  publishedOn: page?.publishedOn ?? "",
});

/** "Moringa in the kitchen!" -> "moringa-in-the-kitchen", the address a new article starts with. */
const slugFrom = (title: string) =>
  title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");

/**
 * The Markdown as the shop will show it: rendered by the server's own renderer (POST /admin/pages/preview),
 * a moment after typing stops, with the shop's name, phone and e-mail filled in as the page fills them.
 */
function usePreview(body: string) {
  const { config } = useShopData();
  const [preview, setPreview] = useState<{ html: string; problem?: string }>({ html: "" });
  const latest = useRef(0);
  useEffect(() => {
    const asked = ++latest.current;
    if (!body.trim()) {
      setPreview({ html: "" });
      return;
    }
    const timer = setTimeout(async () => {
      try {
        const { html } = await api<{ html: string }>("/admin/pages/preview", {
          method: "POST",
          body: { body },
        });
        if (asked === latest.current) setPreview({ html: fillHtmlPlaceholders(html, config) });
      } catch (error) {
        if (asked !== latest.current) return;
        const problem = isApiError(error) ? error.message : "The preview cannot be shown now.";
        setPreview((current) => ({ html: current.html, problem }));
      }
    }, 300);
    return () => clearTimeout(timer);
  }, [body, config]);
  return preview;
}

const keptKey = (page: ContentDetail | null) => `admin-page-draft:${page?.id ?? "new"}`;

/** What was typed and not saved on this page, kept in this tab from an earlier visit, if any. */
function readKept(page: ContentDetail | null): Draft | null {
  try {
    const kept = sessionStorage.getItem(keptKey(page));
    return kept ? (JSON.parse(kept) as Draft) : null;
  } catch {
    return null;
  }
}

/**
 * Hours of writing are not lost to a stray click: while there are changes not saved they are kept in the
 * tab (sessionStorage) and brought back when the page is opened again, and closing or reloading the tab gets
 * the browser's own question. (React Router's useBlocker would ask in-app too, but it costs the first visit of
 * every shopper bytes of the shared vendor chunk.)
 */
function useKeptDraft(page: ContentDetail | null, draft: Draft, unsaved: boolean) {
  useEffect(() => {
    try {
      if (unsaved) sessionStorage.setItem(keptKey(page), JSON.stringify(draft));
      else sessionStorage.removeItem(keptKey(page));
    } catch {
      // Storage refused (private mode, full): the form itself still holds the text.
    }
  }, [page, draft, unsaved]);
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsaved]);
}

type Change = (patch: Partial<Draft>) => void;

/** The draft of one page and how it travels: typed changes, the saves that publish or keep it, and its deletion. */
function usePageDraft(page: ContentDetail | null) {
  const navigate = useNavigate();
  const [saved, setSaved] = useState(page);
  const [restored] = useState(() => {
    const kept = readKept(page);
    return kept && JSON.stringify(kept) !== JSON.stringify(draftOf(page)) ? kept : null;
  });
  const [draft, setDraft] = useState(() => restored ?? draftOf(page));
  const [slugEdited, setSlugEdited] = useState(Boolean(page));
  const form = useFormSave();
  const { setErrors, save } = form;
  const isPost = !saved || saved.kind === "post";
  const unsaved = JSON.stringify(draft) !== JSON.stringify(draftOf(saved));
  useKeptDraft(saved, draft, unsaved);

  const change: Change = (patch) => {
    setDraft((current) => {
      const next = { ...current, ...patch };
      if (!slugEdited && patch.title !== undefined) next.slug = slugFrom(patch.title);
      return next;
    });
    setErrors((current) => {
      const left = { ...current };
      for (const key of Object.keys(patch)) delete left[key];
      if (patch.title !== undefined && !slugEdited) delete left.slug;
      return left;
    });
  };

  async function send(published: boolean, said: (result: ContentDetail) => string) {
    const body = {
      slug: draft.slug,
      title: draft.title,
      description: draft.description,
      author: isPost ? draft.author : null,
      body: draft.body,
      published,
      publishedOn: isPost && draft.publishedOn ? draft.publishedOn : null,
    };
    const result = await save(
      () =>
        saved
          ? api<ContentDetail>(`/admin/pages/${saved.id}`, { method: "PUT", body })
          : api<ContentDetail>("/admin/pages", { method: "POST", body }),
      said,
    );
    if (!result) return;
    if (!saved) {
      // The article now has an address of its own: open it there, saying what happened.
      sessionStorage.removeItem(keptKey(null));
      navigate(`/admin/pages/${result.id}`, {
        replace: true,
        state: { said: { kind: "ok", text: said(result) } },
      });
      return;
    }
    setSaved(result);
    setDraft(draftOf(result));
  }

  return {
    ...form,
    saved,
    restored,
    draft,
    unsaved,
    isPost,
    change,
    send,
    discard: () => setDraft(draftOf(saved)),
    editSlug: () => setSlugEdited(true),
  };
}

/** Deleting a saved page: asked first, then gone back to the list; a refusal said in the form's message. */
function usePageDelete(saved: ContentDetail | null, setMessage: (message: ResultMessageState) => void) {
  const navigate = useNavigate();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  async function remove() {
    if (!saved) return;
    try {
      await api(`/admin/pages/${saved.id}`, { method: "DELETE" });
      navigate("/admin/pages", { replace: true });
    } catch (error) {
      setConfirmingDelete(false);
      setMessage({
        kind: "error",
        text: isApiError(error) ? error.message : "The article could not be deleted.",
      });
    }
  }
  return { confirmingDelete, setConfirmingDelete, remove };
}

function EditorHeading({ saved }: { saved: ContentDetail | null }) {
  return (
    <>
      <p className="text-sm">
        <Link to="/admin/pages" className="underline underline-offset-2">
          Blog and pages
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="font-serif text-3xl font-semibold break-words">
          {saved ? saved.title : "New article"}
        </h1>
        {saved && <StatusBadge published={saved.published} />}
      </div>
      {saved && (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Last saved {formatDateTime(saved.updatedAt)}
          {saved.updatedBy ? ` by ${saved.updatedBy}` : ""}.{" "}
          {saved.published && (
            <a
              href={shopPath(saved)}
              target="_blank"
              rel="noreferrer"
              className="underline underline-offset-2"
            >
              View on the shop
            </a>
          )}
        </p>
      )}
    </>
  );
}

/** A page's address: fixed where the footer links to it, otherwise typed (or following the title until typed). */
function AddressField({
  slug,
  change,
  error,
  fixed,
  editSlug,
}: {
  slug: string;
  change: Change;
  error?: string;
  fixed: boolean;
  editSlug: () => void;
}) {
  if (fixed) {
    return (
      <div>
        <p className="text-sm font-medium text-stone-800 dark:text-stone-200">Address</p>
        <p className="mt-1 py-2.5">{shopPath({ kind: "page", slug })}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">The footer links here: it stays.</p>
      </div>
    );
  }
  const slugProblem =
    slug && !SLUG_PATTERN.test(slug) ? "Use small letters, digits and single hyphens." : undefined;
  return (
    <TextField
      label="Address"
      hint={`Shown at /blog/${slug || "…"}`}
      value={slug}
      onChange={(event) => {
        editSlug();
        change({ slug: event.target.value.toLowerCase() });
      }}
      error={error ?? slugProblem}
      autoCapitalize="none"
      spellCheck={false}
      maxLength={80}
    />
  );
}

function AboutThePage({
  draft,
  change,
  errors,
  fixed,
  isPost,
  editSlug,
}: {
  draft: Draft;
  change: Change;
  errors: FieldErrors;
  fixed: boolean;
  isPost: boolean;
  editSlug: () => void;
}) {
  return (
    <section className={`${cardClass} grid gap-4 sm:grid-cols-2`} aria-label="About the page">
      <TextField
        label="Title"
        value={draft.title}
        onChange={(event) => change({ title: event.target.value })}
        error={errors.title}
        className="sm:col-span-2"
        maxLength={140}
      />
      <AddressField slug={draft.slug} change={change} error={errors.slug} fixed={fixed} editSlug={editSlug} />
      {isPost && (
        <TextField
          label="Date"
          type="date"
          hint="Left empty, the day it is published."
          value={draft.publishedOn}
          onChange={(event) => change({ publishedOn: event.target.value })}
          error={errors.publishedOn}
        />
      )}
      {isPost && (
        <TextField
          label="Author"
          hint="Write {shopName} and the shop fills in its name."
          value={draft.author}
          onChange={(event) => change({ author: event.target.value })}
          error={errors.author}
          maxLength={80}
        />
      )}
      <Field
        label="Summary"
        hint="Under the title in the blog's list, and in search results and link previews."
        error={errors.description}
        className="sm:col-span-2"
      >
        <Textarea
          rows={2}
          value={draft.description}
          onChange={(event) => change({ description: event.target.value })}
          maxLength={300}
        />
      </Field>
    </section>
  );
}

function TextAndPreview({ draft, change, error }: { draft: Draft; change: Change; error?: string }) {
  const preview = usePreview(draft.body);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Field
        label="Text"
        hint="## at the start of a line makes a heading, **words** bold, - a list, [words](/privacy) a link. Write {shopName}, {phone} or {email} and the shop fills in its name, phone or e-mail."
        error={error}
      >
        <Textarea
          rows={12}
          value={draft.body}
          onChange={(event) => change({ body: event.target.value })}
          className="font-mono text-sm lg:min-h-[36rem]"
          spellCheck
        />
      </Field>
      <section aria-labelledby="page-preview" className="min-w-0">
        <h2 id="page-preview" className="text-sm font-medium text-stone-800 dark:text-stone-200">
          Preview, as shoppers will see it
        </h2>
        {preview.problem && (
          <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {preview.problem}
          </p>
        )}
        <div className={`${cardClass} mt-1 overflow-hidden lg:max-h-[36rem] lg:overflow-y-auto`}>
          <h3 className="font-serif text-2xl font-semibold sm:text-3xl">{draft.title || "Title"}</h3>
          <div
            data-testid="page-preview"
            className={`${proseClass} mt-4`}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and made safe by the server, as the shop's pages are
            dangerouslySetInnerHTML={{ __html: preview.html }}
          />
        </div>
      </section>
    </div>
  );
}

function DeleteQuestion({ title, remove, keep }: { title?: string; remove: () => void; keep: () => void }) {
  return (
    <div role="alertdialog" aria-labelledby="delete-question" className={`${cardClass} grid gap-3`}>
      <p id="delete-question">
        Delete “{title}” for good? Its address will show “We couldn't find that article”.
      </p>
      <div className="flex flex-wrap gap-3">
        <Button variant="danger" onClick={remove}>
          Yes, delete it
        </Button>
        <Button variant="secondary" onClick={keep}>
          Keep it
        </Button>
      </div>
    </div>
  );
}

/** Publish, save, unpublish, discard and delete: each shown only where it applies. */
function EditorActions({
  saved,
  saving,
  publish,
  unpublish,
  discard,
  askDelete,
}: {
  saved: ContentDetail | null;
  saving: boolean;
  publish: () => void;
  unpublish: () => void;
  discard?: () => void;
  askDelete?: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      {!saved?.published && (
        <Button onClick={publish} pending={saving} pendingLabel="Saving…">
          Publish
        </Button>
      )}
      <Button
        type="submit"
        variant={saved?.published ? "primary" : "secondary"}
        pending={saving}
        pendingLabel="Saving…"
      >
        {saved?.published ? "Save" : "Save draft"}
      </Button>
      {saved?.published && !saved.fixed && (
        <Button variant="secondary" onClick={unpublish} pending={saving}>
          Unpublish
        </Button>
      )}
      {discard && (
        <Button variant="secondary" onClick={discard}>
          Discard changes
        </Button>
      )}
      {askDelete && (
        <Button variant="danger-outline" onClick={askDelete} className="sm:ml-auto">
          Delete
        </Button>
      )}
    </div>
  );
}

function RestoredNote() {
  return (
    <p
      role="status"
      className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"
    >
      Your changes from before, not yet saved, are back in the form: save them, or discard them.
    </p>
  );
}

/** The editor of one page or article (/admin/pages/:id), or of a new article (/admin/pages/new). */
export function PageEditor({ page }: { page: ContentDetail | null }) {
  const location = useLocation();
  const editor = usePageDraft(page);
  const { saved, draft, unsaved, saving, send } = editor;
  const { confirmingDelete, setConfirmingDelete, remove } = usePageDelete(saved, editor.setMessage);
  const fixed = saved?.fixed ?? false;
  const arrived = (location.state as { said?: ResultMessageState } | null)?.said ?? null;

  const where = (result: ContentDetail) => shopPath(result);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const published = saved?.published ?? false;
    void send(published, (result) =>
      result.published
        ? `Saved. Shoppers see it now at ${where(result)}.`
        : "Draft saved. Shoppers do not see it.",
    );
  };
  const publish = () =>
    void send(
      true,
      (result) => `Published. Shoppers see it now at ${where(result)}, and it is in the sitemap.`,
    );
  const unpublish = () => void send(false, () => "Taken off the shop: it is a draft again, seen only here.");

  return (
    <div>
      <EditorHeading saved={saved} />
      <form onSubmit={submit} aria-label="Page" className="mt-4 grid gap-4" noValidate>
        <ResultMessage message={editor.message ?? arrived} />
        {editor.restored && unsaved && !editor.message && <RestoredNote />}
        <AboutThePage
          draft={draft}
          change={editor.change}
          errors={editor.errors}
          fixed={fixed}
          isPost={editor.isPost}
          editSlug={editor.editSlug}
        />
        <TextAndPreview draft={draft} change={editor.change} error={editor.errors.body} />

        <EditorActions
          saved={saved}
          saving={saving}
          publish={publish}
          unpublish={unpublish}
          discard={unsaved ? editor.discard : undefined}
          askDelete={saved && !fixed && !confirmingDelete ? () => setConfirmingDelete(true) : undefined}
        />
        {confirmingDelete && (
          <DeleteQuestion
            title={saved?.title}
            remove={() => void remove()}
            keep={() => setConfirmingDelete(false)}
          />
        )}
      </form>
    </div>
  );
}
