import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useRevalidator } from "react-router";
import { BADGES, CATEGORIES, CATEGORY_FILTERS, type Category, MENUS } from "../../../common/catalogue.ts";
import {
  type AdminProduct,
  type AdminProductImage,
  MAX_PRODUCT_IMAGES,
} from "../../../common/schemas/admin-products.ts";
import { buttonClass } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { controlClass } from "../../components/field.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { HEADER_MENUS } from "../../lib/header-menus.ts";
import { uploadPhoto } from "./upload-photo.ts";

type Draft = {
  name: string;
  slug: string;
  price: string;
  originalPrice: string;
  description: string;
  benefits: [string, string, string];
  category: Category;
  subcategory: string;
  badge: string;
  menus: string[];
  images: AdminProductImage[];
  active: boolean;
};

const rupeesText = (paise: number | null) =>
  paise === null ? "" : paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2);

function draftOf(product: AdminProduct | null): Draft {
  const category = product?.category ?? "haircare";
  return {
    name: product?.name ?? "",
    slug: product?.slug ?? "",
    price: rupeesText(product?.pricePaise ?? null),
    originalPrice: rupeesText(product?.originalPricePaise ?? null),
    description: product?.description ?? "",
    benefits: product ? [...product.benefits] : ["", "", ""],
    category,
    subcategory: product?.subcategory ?? CATEGORY_FILTERS[category].subcategories[0] ?? "",
    badge: product?.badge ?? "",
    menus: product ? [...product.menus] : [],
    images: product ? product.images : [],
    active: product?.active ?? true,
  };
}

/** What a slug made from a name looks like: "Neem Hair Rinse" -> "neem-hair-rinse". */
const slugFrom = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);

/**
 * Rupees as typed into paise. A figure that is not whole paise is sent as it is, so the server names the
 * field rather than the form rounding it silently; text that is no number at all is sent as text.
 */
function toPaise(text: string): unknown {
  const trimmed = text.trim().replace(/,/g, "");
  if (trimmed === "") return null;
  const rupees = Number(trimmed);
  if (!Number.isFinite(rupees)) return trimmed;
  const paise = rupees * 100;
  const whole = Math.round(paise);
  return Math.abs(paise - whole) < 1e-6 ? whole : paise;
}

function bodyOf(draft: Draft) {
  return {
    name: draft.name,
    slug: draft.slug,
    pricePaise: toPaise(draft.price),
    originalPricePaise: toPaise(draft.originalPrice),
    description: draft.description,
    benefits: draft.benefits,
    category: draft.category,
    subcategory: draft.subcategory,
    badge: draft.badge || null,
    menus: draft.menus,
    images: draft.images.map(({ key, alt }) => ({ key, alt })),
    active: draft.active,
  };
}

const MENU_LABELS = Object.fromEntries(HEADER_MENUS.map((menu) => [menu.key, menu.label]));

/**
 * The owner's form for one product (or a new one). Everything typed stays in this component's state until a
 * save succeeds: a refused save (bad input, or someone else's change in between) shows why beside the form
 * and loses nothing.
 */
export function ProductEditor({ product }: { product: AdminProduct | null }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft>(() => draftOf(product));
  const [slugTouched, setSlugTouched] = useState(Boolean(product));
  const [version, setVersion] = useState(product?.version ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  // A refused save is explained at the top of the form, usually scrolled out of view by then: bring it in.
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!message) return;
    notice.current?.scrollIntoView({ block: "center" });
    notice.current?.focus({ preventScroll: true });
  }, [message]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setSaved(null);
  };

  async function save(atVersion = version) {
    setSaving(true);
    setErrors({});
    setMessage(null);
    setConflict(false);
    setSaved(null);
    try {
      const stored = await api<AdminProduct>(
        product ? `/admin/products/${product.slug}` : "/admin/products",
        {
          method: product ? "PUT" : "POST",
          body: product ? { ...bodyOf(draft), version: atVersion } : bodyOf(draft),
        },
      );
      setVersion(stored.version);
      setSaved(product ? "Saved. The shop shows the change now." : "Product created.");
      if (!product || stored.slug !== product.slug) {
        navigate(`/admin/products/${stored.slug}`, { replace: true });
      } else {
        revalidator.revalidate();
      }
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      if (caught.status === 409 && caught.code === "product_changed") {
        setConflict(true);
        setMessage(caught.message);
      } else {
        setErrors(caught.fields ?? {});
        setMessage(caught.fields ? "Please correct the fields marked below." : caught.message);
      }
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

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save();
  }

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

  const moveImage = (index: number, by: -1 | 1) => {
    const images = [...draft.images];
    const [moved] = images.splice(index, 1);
    if (!moved) return;
    images.splice(index + by, 0, moved);
    set("images", images);
  };

  const errorOf = (name: string) => errors[name];
  const described = (name: string) =>
    errorOf(name) ? { "aria-describedby": `product-${name}-error`, "aria-invalid": true } : {};
  const field = (name: string, label: string, input: ReactNode, hint?: string, wide = false) => (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <label htmlFor={`product-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      {input}
      {hint && !errorOf(name) && <p className="mt-1 text-xs text-stone-500 dark:text-stone-400">{hint}</p>}
      <FieldError id={`product-${name}-error`} text={errorOf(name)} />
    </div>
  );

  const subcategories = CATEGORY_FILTERS[draft.category].subcategories;
  const imageErrors = Object.entries(errors)
    .filter(([key, text]) => key.startsWith("images") && text)
    .map(([, text]) => text);

  return (
    <form onSubmit={submit} noValidate aria-label={product ? `Edit ${product.name}` : "New product"}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/admin/products" className="underline">
              ← Products
            </Link>
          </p>
          <h1 className="mt-1 font-serif text-3xl font-semibold">{product ? product.name : "New product"}</h1>
        </div>
        {product?.active && (
          <Link to={`/product/${product.slug}`} className="text-sm underline">
            See it in the shop
          </Link>
        )}
      </div>

      <div ref={notice} tabIndex={-1} className="focus:outline-none">
        {conflict && (
          <div
            role="alert"
            className="mt-4 rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-500 dark:bg-amber-950/40 dark:text-amber-100"
          >
            <p className="font-medium">{message}</p>
            <p className="mt-1 text-sm">What you typed is still in the form below.</p>
            <div className="mt-3 flex flex-wrap gap-3">
              <button
                type="button"
                className={buttonClass()}
                disabled={saving}
                onClick={() => void saveOverTheirs()}
              >
                Save mine over theirs
              </button>
              {product && (
                <a
                  href={`/admin/products/${product.slug}`}
                  target="_blank"
                  rel="noreferrer"
                  className={buttonClass({ variant: "secondary" })}
                >
                  See their version (new tab)
                </a>
              )}
            </div>
          </div>
        )}
        {!conflict && message && (
          <p role="alert" className="mt-4 text-sm font-medium text-red-700 dark:text-red-400">
            {message}
          </p>
        )}
      </div>
      {saved && (
        <p role="status" className="mt-4 text-sm font-medium text-emerald-800 dark:text-emerald-300">
          {saved}
        </p>
      )}
      {product?.ordered && (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          This product has been ordered: it can be hidden, never deleted.
        </p>
      )}

      <div className={`${cardClass} mt-4 grid gap-4 sm:grid-cols-2`}>
        <h2 className="font-serif text-xl font-semibold sm:col-span-2">Details</h2>
        {field(
          "name",
          "Name",
          <input
            id="product-name"
            value={draft.name}
            maxLength={80}
            onChange={(event) => {
              const name = event.currentTarget.value;
              setDraft((current) => ({ ...current, name, ...(slugTouched ? {} : { slug: slugFrom(name) }) }));
            }}
            className={controlClass}
            {...described("name")}
          />,
        )}
        {field(
          "slug",
          "Address (slug)",
          <input
            id="product-slug"
            value={draft.slug}
            maxLength={80}
            onChange={(event) => {
              setSlugTouched(true);
              set("slug", event.currentTarget.value);
            }}
            className={`${controlClass} font-mono`}
            {...described("slug")}
          />,
          product
            ? `/product/${draft.slug || "…"}${draft.slug !== product.slug ? ` (the old address will redirect here)` : ""}`
            : `/product/${draft.slug || "…"}`,
        )}
        {field(
          "pricePaise",
          "Price (₹)",
          <input
            id="product-pricePaise"
            value={draft.price}
            inputMode="decimal"
            onChange={(event) => set("price", event.currentTarget.value)}
            className={controlClass}
            {...described("pricePaise")}
          />,
        )}
        {field(
          "originalPricePaise",
          "Original price (₹)",
          <input
            id="product-originalPricePaise"
            value={draft.originalPrice}
            inputMode="decimal"
            onChange={(event) => set("originalPrice", event.currentTarget.value)}
            className={controlClass}
            {...described("originalPricePaise")}
          />,
          "Optional. Shown struck through, with a SALE tag, when above the price.",
        )}
        {field(
          "description",
          "Description",
          <textarea
            id="product-description"
            value={draft.description}
            rows={4}
            maxLength={2000}
            onChange={(event) => set("description", event.currentTarget.value)}
            className={controlClass}
            {...described("description")}
          />,
          undefined,
          true,
        )}
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium">Benefits (three short phrases)</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {draft.benefits.map((benefit, index) => (
              <div key={`benefit-${index.toString()}`}>
                <label htmlFor={`product-benefits.${index}`} className="sr-only">
                  Benefit {index + 1}
                </label>
                <input
                  id={`product-benefits.${index}`}
                  value={benefit}
                  maxLength={60}
                  placeholder={`Benefit ${index + 1}`}
                  onChange={(event) => {
                    const benefits = [...draft.benefits] as Draft["benefits"];
                    benefits[index] = event.currentTarget.value;
                    set("benefits", benefits);
                  }}
                  className={controlClass}
                  {...described(`benefits.${index}`)}
                />
                <FieldError id={`product-benefits.${index}-error`} text={errorOf(`benefits.${index}`)} />
              </div>
            ))}
          </div>
          <FieldError id="product-benefits-error" text={errorOf("benefits")} />
        </fieldset>
        {field(
          "category",
          "Category",
          <select
            id="product-category"
            value={draft.category}
            onChange={(event) => {
              const category = event.currentTarget.value as Category;
              setDraft((current) => ({
                ...current,
                category,
                subcategory: CATEGORY_FILTERS[category].subcategories.includes(current.subcategory)
                  ? current.subcategory
                  : (CATEGORY_FILTERS[category].subcategories[0] ?? ""),
              }));
            }}
            className={controlClass}
            {...described("category")}
          >
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {CATEGORY_FILTERS[category].label}
              </option>
            ))}
          </select>,
        )}
        {field(
          "subcategory",
          "Subcategory",
          <select
            id="product-subcategory"
            value={draft.subcategory}
            onChange={(event) => set("subcategory", event.currentTarget.value)}
            className={controlClass}
            {...described("subcategory")}
          >
            {subcategories.map((subcategory) => (
              <option key={subcategory} value={subcategory}>
                {subcategory}
              </option>
            ))}
          </select>,
        )}
        {field(
          "badge",
          "Badge",
          <select
            id="product-badge"
            value={draft.badge}
            onChange={(event) => set("badge", event.currentTarget.value)}
            className={controlClass}
            {...described("badge")}
          >
            <option value="">None</option>
            {BADGES.map((badge) => (
              <option key={badge} value={badge}>
                {badge}
              </option>
            ))}
          </select>,
        )}
        <fieldset>
          <legend className="text-sm font-medium">Header menus it appears in</legend>
          <div className="mt-1 grid grid-cols-2 gap-x-3">
            {MENUS.map((menu) => (
              <label key={menu} className="flex min-h-11 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={draft.menus.includes(menu)}
                  onChange={(event) =>
                    set(
                      "menus",
                      event.currentTarget.checked
                        ? MENUS.filter((each) => each === menu || draft.menus.includes(each))
                        : draft.menus.filter((each) => each !== menu),
                    )
                  }
                />
                {MENU_LABELS[menu] ?? menu}
              </label>
            ))}
          </div>
          <FieldError id="product-menus-error" text={errorOf("menus") ?? errorOf("menus.0")} />
        </fieldset>
        <label className="flex min-h-11 items-center gap-2 text-sm font-medium sm:col-span-2">
          <input
            type="checkbox"
            checked={draft.active}
            onChange={(event) => set("active", event.currentTarget.checked)}
          />
          Shown in the shop (unticked: hidden from the shop, search, menus and the sitemap)
        </label>
      </div>

      <fieldset className={`${cardClass} mt-4`} aria-describedby="product-images-hint">
        <legend className="float-left w-full font-serif text-xl font-semibold">Images</legend>
        <p id="product-images-hint" className="clear-both pt-1 text-sm text-stone-600 dark:text-stone-400">
          1 to {MAX_PRODUCT_IMAGES} photos: JPEG, PNG or WebP, up to 10 MB and 50 megapixels each, cropped
          square. The first is the one on cards and in carts.
        </p>
        <ol className="mt-3 grid gap-3 sm:grid-cols-3" aria-label="Images in order">
          {draft.images.map((image, index) => (
            <li
              key={image.key}
              className="flex gap-3 rounded-lg border border-stone-200 p-2 sm:block dark:border-stone-700"
            >
              <img
                src={image.small}
                width={400}
                height={400}
                alt=""
                className="aspect-square size-24 shrink-0 rounded-md bg-white sm:size-auto sm:w-full"
              />
              <div className="min-w-0 flex-1">
                <label htmlFor={`product-image-alt-${index}`} className="mt-2 block text-sm font-medium">
                  Image {index + 1}: what it shows (alt text)
                </label>
                <input
                  id={`product-image-alt-${index}`}
                  value={image.alt}
                  maxLength={200}
                  placeholder={draft.name || "Product name"}
                  onChange={(event) => {
                    const alt = event.currentTarget.value;
                    set(
                      "images",
                      draft.images.map((each, at) => (at === index ? { ...each, alt } : each)),
                    );
                  }}
                  className={controlClass}
                />
                <div className="mt-2 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={`${buttonClass({ variant: "secondary" })} min-h-11 px-3`}
                    disabled={index === 0}
                    onClick={() => moveImage(index, -1)}
                    aria-label={`Move image ${index + 1} earlier`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className={`${buttonClass({ variant: "secondary" })} min-h-11 px-3`}
                    disabled={index === draft.images.length - 1}
                    onClick={() => moveImage(index, 1)}
                    aria-label={`Move image ${index + 1} later`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className={`${buttonClass({ variant: "secondary" })} min-h-11 px-3`}
                    onClick={() =>
                      set(
                        "images",
                        draft.images.filter((_, at) => at !== index),
                      )
                    }
                  >
                    Remove<span className="sr-only"> image {index + 1}</span>
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ol>
        {draft.images.length < MAX_PRODUCT_IMAGES && (
          <div className="mt-3">
            <label
              htmlFor="product-image-file"
              className={`${buttonClass({ variant: "secondary" })} min-h-11 cursor-pointer`}
            >
              {uploading ? "Uploading…" : "Add a photo"}
            </label>
            <input
              id="product-image-file"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              className="sr-only"
              disabled={uploading}
              onChange={(event) => void addImage(event)}
            />
          </div>
        )}
        {imageErrors.map((text) => (
          <p key={text} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {text}
          </p>
        ))}
      </fieldset>

      <div className="mt-4 flex flex-wrap gap-3">
        <button type="submit" className={`${buttonClass()} min-h-11`} disabled={saving || uploading}>
          {saving ? "Saving…" : product ? "Save changes" : "Create product"}
        </button>
        <Link to="/admin/products" className={`${buttonClass({ variant: "secondary" })} min-h-11`}>
          Back to products
        </Link>
      </div>
    </form>
  );
}

function FieldError({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
      {text}
    </p>
  );
}
