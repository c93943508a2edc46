import { type FormEvent, useState } from "react";
import {
  HERO_TONES,
  type HeroSlide,
  type HeroSlideInput,
  MAX_HERO_SLIDES,
} from "../../../common/schemas/hero-slides.ts";
import { Button, buttonClass } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, FieldError, Input, Options, Select, Textarea } from "../../components/field.tsx";
import { ResultMessage } from "../../components/result-message.tsx";
import { NotSavedYet, useUnsavedSection } from "../../components/unsaved-sections.tsx";
import { api } from "../../lib/api.ts";
import { useFormSave } from "../../lib/use-form-save.ts";
import { uploadPhoto } from "./upload-photo.ts";

/** A slide being edited: the input the API takes, with the picture's address for the preview. */
type DraftSlide = HeroSlideInput & { picture: string; id: number };

let nextId = 0;
const draftOf = (slide: HeroSlide): DraftSlide => ({
  id: nextId++,
  active: slide.active,
  eyebrow: slide.eyebrow,
  heading: slide.heading,
  text: slide.text,
  buttonLabel: slide.buttonLabel,
  buttonTarget: slide.buttonTarget,
  image: slide.image.key,
  imageAlt: slide.imageAlt,
  tone: slide.tone,
  picture: slide.image.small,
});

const TEXT_FIELDS = [
  ["eyebrow", "Label above the heading"],
  ["heading", "Heading"],
  ["text", "Text"],
  ["buttonLabel", "Button label"],
  [
    "buttonTarget",
    "Button goes to (the page's address after the shop's domain: /#featured for the featured products, /blog for the blog)",
  ],
  ["imageAlt", "Picture description (for screen readers)"],
] as const;

/**
 * The home page's slides as one list: edit, reorder, show or hide, add and remove, then save the whole
 * list at once (PUT /api/admin/settings/hero-slides). Nothing typed is lost when the save is refused.
 */
export function HeroSlidesEditor({ slides: saved }: { slides: HeroSlide[] }) {
  const [slides, setSavedOrDraft] = useState(() => saved.map(draftOf));
  const { errors, setErrors, message, saving, save } = useFormSave();
  const [uploading, setUploading] = useState<number | null>(null);
  const section = useUnsavedSection("Home page slides");
  // Every change to the list goes through here, so the section knows it holds changes not saved.
  const setSlides = (change: (current: DraftSlide[]) => DraftSlide[]) => {
    section.touch();
    setSavedOrDraft(change);
  };

  const update = (id: number, patch: Partial<DraftSlide>) =>
    setSlides((current) => current.map((slide) => (slide.id === id ? { ...slide, ...patch } : slide)));
  const move = (index: number, by: -1 | 1) =>
    setSlides((current) => {
      const next = [...current];
      const [moved] = next.splice(index, 1);
      if (moved) next.splice(index + by, 0, moved);
      return next;
    });

  async function choosePicture(id: number, index: number, file: File | undefined) {
    if (!file) return;
    setUploading(id);
    try {
      const result = await uploadPhoto(file);
      if (result.ok) update(id, { image: result.image.key, picture: result.image.small });
      else setErrors((current) => ({ ...current, [`slides.${index}.image`]: result.problem }));
    } finally {
      setUploading(null);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { slides: slides.map(({ id: _, picture: __, ...slide }) => slide) };
    const result = await save(
      () => api<{ slides: HeroSlide[] }>("/admin/settings/hero-slides", { method: "PUT", body }),
      ({ slides: now }) =>
        `Slides saved. The home page shows ${now.filter((slide) => slide.active).length} now.${section.stillUnsaved}`,
      // The list's own rule (at least one slide shown) is the whole story.
      "slides",
    );
    if (!result) return;
    section.saved();
    setSavedOrDraft(() => result.slides.map(draftOf));
  }

  return (
    <form onSubmit={submit} aria-label="Home page slides" className="mt-6 grid gap-4" noValidate>
      <h2 className="font-serif text-2xl font-semibold">Home page slides</h2>
      <ResultMessage message={message} />
      <ol className="grid gap-4">
        {slides.map((slide, index) => {
          const fieldId = (name: string) => `slide-${slide.id}-${name}`;
          const error = (name: string) => errors[`slides.${index}.${name}`];
          return (
            <li key={slide.id} className={`${cardClass} grid gap-3`} aria-label={`Slide ${index + 1}`}>
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="mr-auto font-semibold">
                  Slide {index + 1}
                  {!slide.active && (
                    <span className="ml-2 text-sm font-normal text-stone-600 dark:text-stone-400">
                      (hidden)
                    </span>
                  )}
                </h3>
                <Button
                  variant="secondary"
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                  aria-label={`Move slide ${index + 1} up`}
                >
                  ↑
                </Button>
                <Button
                  variant="secondary"
                  disabled={index === slides.length - 1}
                  onClick={() => move(index, 1)}
                  aria-label={`Move slide ${index + 1} down`}
                >
                  ↓
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => setSlides((current) => current.filter((other) => other.id !== slide.id))}
                  aria-label={`Remove slide ${index + 1}`}
                >
                  Remove
                </Button>
              </div>
              <label className="flex min-h-11 items-center gap-3 text-sm">
                <input
                  type="checkbox"
                  checked={slide.active}
                  onChange={(event) => update(slide.id, { active: event.target.checked })}
                  className="size-5 accent-brand-700"
                />
                Shown on the home page
              </label>
              <div className="flex flex-wrap items-center gap-3">
                <img
                  src={slide.picture}
                  alt=""
                  className="size-20 rounded-md border border-stone-200 object-cover dark:border-stone-700"
                />
                <label className={`${buttonClass({ variant: "secondary" })} min-h-11 cursor-pointer`}>
                  {uploading === slide.id ? "Uploading…" : "Replace picture"}
                  <input
                    type="file"
                    accept="image/jpeg,image/png,image/webp"
                    className="sr-only"
                    disabled={uploading !== null}
                    onChange={(event) => void choosePicture(slide.id, index, event.target.files?.[0])}
                  />
                </label>
              </div>
              <FieldError error={error("image")} alert />
              {TEXT_FIELDS.map(([name, label]) => (
                <Field key={name} id={fieldId(name)} label={label} error={error(name)} alert>
                  {name === "text" ? (
                    <Textarea
                      rows={3}
                      value={slide[name]}
                      onChange={(event) => update(slide.id, { [name]: event.target.value })}
                    />
                  ) : (
                    <Input
                      value={slide[name]}
                      onChange={(event) => update(slide.id, { [name]: event.target.value })}
                    />
                  )}
                </Field>
              ))}
              <Field id={fieldId("tone")} label="Background">
                <Select
                  value={slide.tone}
                  onChange={(event) => update(slide.id, { tone: event.target.value as DraftSlide["tone"] })}
                >
                  <Options values={HERO_TONES} />
                </Select>
              </Field>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        {slides.length < MAX_HERO_SLIDES && slides[0] && (
          <Button
            variant="secondary"
            onClick={() =>
              setSlides((current) =>
                current[0]
                  ? [
                      ...current,
                      { ...current[0], id: nextId++, heading: "", text: "", eyebrow: "", active: false },
                    ]
                  : current,
              )
            }
          >
            Add a slide (hidden until you show it)
          </Button>
        )}
        <Button type="submit" disabled={saving || uploading !== null}>
          {saving ? "Saving…" : "Save slides"}
        </Button>
        <NotSavedYet unsaved={section.unsaved} />
      </div>
    </form>
  );
}
