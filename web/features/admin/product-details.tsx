import { BADGES, CATEGORIES, CATEGORY_FILTERS, type Category, MENUS } from "../../../common/catalogue.ts";
import type { AdminProduct } from "../../../common/schemas/admin-products.ts";
import { cardClass } from "../../components/card.tsx";
import { Field, FieldError, Input, Options, Select, Textarea } from "../../components/field.tsx";
import { HEADER_MENUS } from "../../lib/header-menus.ts";
import type { Draft } from "./product-draft.ts";
import type { ProductEditorState } from "./use-product-editor.ts";

const MENU_LABELS = Object.fromEntries(HEADER_MENUS.map((menu) => [menu.key, menu.label]));

type Props = { product: AdminProduct | null; editor: ProductEditorState };

/** A field's error from the last save; its hint gives way to it. */
function fieldProps(editor: ProductEditorState, name: string, hint?: string) {
  const error = editor.errors[name];
  return { id: `product-${name}`, error, hint: error ? undefined : hint };
}

/** The product's words, prices, place in the catalogue and whether the shop shows it. */
export function ProductDetails({ product, editor }: Props) {
  const { draft, set } = editor;
  const slugHint = `/product/${draft.slug || "…"}${
    product && draft.slug !== product.slug ? " (the old address will redirect here)" : ""
  }`;
  return (
    <div className={`${cardClass} mt-4 grid gap-4 sm:grid-cols-2`}>
      <h2 className="font-serif text-xl font-semibold sm:col-span-2">Details</h2>
      <Field label="Name" {...fieldProps(editor, "name")}>
        <Input
          value={draft.name}
          maxLength={80}
          onChange={(event) => editor.setName(event.currentTarget.value)}
        />
      </Field>
      <Field label="Address (slug)" {...fieldProps(editor, "slug", slugHint)}>
        <Input
          value={draft.slug}
          maxLength={80}
          onChange={(event) => editor.setSlug(event.currentTarget.value)}
          className="font-mono"
        />
      </Field>
      <Field label="Price (₹)" {...fieldProps(editor, "pricePaise")}>
        <Input
          value={draft.price}
          inputMode="decimal"
          onChange={(event) => set("price", event.currentTarget.value)}
        />
      </Field>
      <Field
        label="Original price (₹)"
        {...fieldProps(
          editor,
          "originalPricePaise",
          "Optional. Shown struck through, with a SALE tag, when above the price.",
        )}
      >
        <Input
          value={draft.originalPrice}
          inputMode="decimal"
          onChange={(event) => set("originalPrice", event.currentTarget.value)}
        />
      </Field>
      <Field label="Description" className="sm:col-span-2" {...fieldProps(editor, "description")}>
        <Textarea
          value={draft.description}
          rows={4}
          maxLength={2000}
          onChange={(event) => set("description", event.currentTarget.value)}
        />
      </Field>
      <BenefitFields editor={editor} />
      <ProductPlacement editor={editor} />
      <label className="flex min-h-11 items-center gap-2 text-sm font-medium sm:col-span-2">
        <input
          type="checkbox"
          checked={draft.active}
          onChange={(event) => set("active", event.currentTarget.checked)}
        />
        Shown in the shop (unticked: hidden from the shop, search, menus and the sitemap)
      </label>
    </div>
  );
}

function BenefitFields({ editor }: { editor: ProductEditorState }) {
  const { draft, set, errors } = editor;
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium">Benefits (three short phrases)</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {draft.benefits.map((benefit, index) => {
          const id = `product-benefits.${index}`;
          const error = errors[`benefits.${index}`];
          return (
            <div key={id}>
              <label htmlFor={id} className="sr-only">
                Benefit {index + 1}
              </label>
              <Input
                id={id}
                value={benefit}
                maxLength={60}
                placeholder={`Benefit ${index + 1}`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => {
                  const benefits = [...draft.benefits] as Draft["benefits"];
                  benefits[index] = event.currentTarget.value;
                  set("benefits", benefits);
                }}
              />
              <FieldError id={`${id}-error`} error={error} />
            </div>
          );
        })}
      </div>
      <FieldError id="product-benefits-error" error={errors.benefits} />
    </fieldset>
  );
}

/** Category, subcategory, badge and the header menus: where the product shows up. */
function ProductPlacement({ editor }: { editor: ProductEditorState }) {
  const { draft, set, setDraft, errors } = editor;
  const chooseCategory = (category: Category) =>
    setDraft((current) => ({
      ...current,
      category,
      subcategory: CATEGORY_FILTERS[category].subcategories.includes(current.subcategory)
        ? current.subcategory
        : (CATEGORY_FILTERS[category].subcategories[0] ?? ""),
    }));
  const toggleMenu = (menu: string, on: boolean) =>
    set(
      "menus",
      on
        ? MENUS.filter((each) => each === menu || draft.menus.includes(each))
        : draft.menus.filter((each) => each !== menu),
    );
  return (
    <>
      <Field label="Category" {...fieldProps(editor, "category")}>
        <Select
          value={draft.category}
          onChange={(event) => chooseCategory(event.currentTarget.value as Category)}
        >
          {CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {CATEGORY_FILTERS[category].label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Subcategory" {...fieldProps(editor, "subcategory")}>
        <Select value={draft.subcategory} onChange={(event) => set("subcategory", event.currentTarget.value)}>
          {CATEGORY_FILTERS[draft.category].subcategories.map((subcategory) => (
            <option key={subcategory} value={subcategory}>
              {subcategory}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Badge" {...fieldProps(editor, "badge")}>
        <Select value={draft.badge} onChange={(event) => set("badge", event.currentTarget.value)}>
          <option value="">None</option>
          <Options values={BADGES} />
        </Select>
      </Field>
      <fieldset>
        <legend className="text-sm font-medium">Header menus it appears in</legend>
        <div className="mt-1 grid grid-cols-2 gap-x-3">
          {MENUS.map((menu) => (
            <label key={menu} className="flex min-h-11 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={draft.menus.includes(menu)}
                onChange={(event) => toggleMenu(menu, event.currentTarget.checked)}
              />
              {MENU_LABELS[menu] ?? menu}
            </label>
          ))}
        </div>
        <FieldError id="product-menus-error" error={errors.menus ?? errors["menus.0"]} />
      </fieldset>
    </>
  );
}
