import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import type { AdminProduct } from "../../../common/schemas/admin-products.ts";
import { api, isApiError } from "../../lib/api.ts";
import { bodyOf, type Draft, draftOf, slugFrom } from "./product-draft.ts";
import { uploadPhoto } from "./upload-photo.ts";

/** Why the last save was refused: the fields' own messages, and one for the form (a conflict says so). */
function useSaveOutcome() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  // A refused save is explained at the top of the form, usually scrolled out of view by then: bring it in.
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!message) return;
    notice.current?.scrollIntoView({ block: "center" });
    notice.current?.focus({ preventScroll: true });
  }, [message]);
  const clear = () => {
    setErrors({});
    setMessage(null);
    setConflict(false);
    setSaved(null);
  };
  const refuse = (caught: unknown) => {
    if (!isApiError(caught)) throw caught;
    if (caught.status === 409 && caught.code === "product_changed") {
      setConflict(true);
      setMessage(caught.message);
    } else {
      setErrors(caught.fields ?? {});
      setMessage(caught.fields ? "Please correct the fields marked below." : caught.message);
    }
  };
  return { errors, setErrors, message, conflict, saved, setSaved, notice, clear, refuse };
}

/** Photos: uploaded one at a time, kept in the draft in their order. */
function usePhotoUpload(
  setDraft: (update: (current: Draft) => Draft) => void,
  setErrors: (update: (current: Record<string, string>) => Record<string, string>) => void,
) {
  const [uploading, setUploading] = useState(false);
  async function addImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = "";
    if (!file) return;
    setErrors((current) => ({ ...current, images: "" }));
    setUploading(true);
    try {
      const uploaded = await uploadPhoto(file);
      if (!uploaded.ok) {
        setErrors((current) => ({ ...current, images: uploaded.problem }));
        return;
      }
      const { image } = uploaded;
      setDraft((current) =>
        current.images.some((each) => each.key === image.key)
          ? current
          : { ...current, images: [...current.images, image] },
      );
    } finally {
      setUploading(false);
    }
  }
  return { uploading, addImage };
}

/**
 * The product form's state and its save. Everything typed stays in the draft until a save succeeds: a refused
 * save (bad input, or someone else's change in between) says why and loses nothing.
 */
export function useProductEditor(product: AdminProduct | null) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft>(() => draftOf(product));
  const [slugTouched, setSlugTouched] = useState(Boolean(product));
  const [version, setVersion] = useState(product?.version ?? 0);
  const [saving, setSaving] = useState(false);
  const outcome = useSaveOutcome();
  const photos = usePhotoUpload(setDraft, outcome.setErrors);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    outcome.setSaved(null);
  };
  /** A new product's address follows its name until the owner types one. */
  const setName = (name: string) =>
    setDraft((current) => ({ ...current, name, ...(slugTouched ? {} : { slug: slugFrom(name) }) }));
  const setSlug = (slug: string) => {
    setSlugTouched(true);
    set("slug", slug);
  };

  async function save(atVersion = version) {
    setSaving(true);
    outcome.clear();
    try {
      const stored = await api<AdminProduct>(
        product ? `/admin/products/${product.slug}` : "/admin/products",
        {
          method: product ? "PUT" : "POST",
          body: product ? { ...bodyOf(draft), version: atVersion } : bodyOf(draft),
        },
      );
      setVersion(stored.version);
      outcome.setSaved(product ? "Saved. The shop shows the change now." : "Product created.");
      if (!product || stored.slug !== product.slug)
        navigate(`/admin/products/${stored.slug}`, { replace: true });
      else revalidator.revalidate();
    } catch (caught) {
      outcome.refuse(caught);
    } finally {
      setSaving(false);
    }
  }

  /** After a conflict: this form's content saved over the other change, on purpose. */
  async function saveOverTheirs() {
    if (!product) return;
    const latest = await api<AdminProduct>(`/admin/products/${product.slug}`);
    await save(latest.version);
  }

  return { draft, setDraft, set, setName, setSlug, saving, save, saveOverTheirs, ...outcome, ...photos };
}

export type ProductEditorState = ReturnType<typeof useProductEditor>;
