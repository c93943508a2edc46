import { LeafIcon } from "../../components/info-icons.tsx";
import { SECTION_IDS } from "../../lib/go-to-section.ts";
import { AboutStory } from "./about-story.tsx";

const INGREDIENTS = [
  {
    name: "Bhringraj and hibiscus",
    use: "in our hair oils and hair packs, for stronger roots and softer hair",
  },
  { name: "Kasturi manjal and sandalwood", use: "in our face packs, for a brighter, even tone" },
  { name: "Green gram and rose petals", use: "in our bath and face wash powders, to cleanse without soap" },
  {
    name: "Shikakai and soapnut",
    use: "in our hair wash powder, to wash out oil without stripping the scalp",
  },
  { name: "Sprouted ragi and moringa", use: "in our health mixes, for everyday plant protein and greens" },
  { name: "Palm jaggery", use: "to sweeten our milk mixes instead of refined sugar" },
];

const PROMISES = [
  { title: "Whole ingredients", text: "Herbs, grains and flowers you can name, sun-dried and stone-ground." },
  { title: "Small batches", text: "Made fresh, a few hundred jars at a time, so nothing sits for months." },
  { title: "Nothing harsh", text: "No parabens, sulphates, synthetic colours or artificial preservatives." },
  { title: "Time-tested", text: "Household recipes from South Indian kitchens, used for generations." },
];

/** Why natural: the brand's story and ingredients; the section "About Us" scrolls to. */
export function AboutSection({ shopName }: { shopName: string }) {
  return (
    <section
      id={SECTION_IDS.about}
      tabIndex={-1}
      aria-labelledby="about-heading"
      className="mx-auto max-w-7xl px-4 py-12 focus:outline-none sm:py-16"
    >
      <div className="grid gap-10 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase dark:text-brand-100">
            About us
          </p>
          <h2 id="about-heading" className="mt-1 mb-5 font-serif text-3xl font-semibold sm:text-4xl">
            Why natural, and why us
          </h2>
          <AboutStory shopName={shopName} />
          <ul className="mt-8 grid gap-4 sm:grid-cols-2">
            {PROMISES.map((promise) => (
              <li key={promise.title} className="rounded-2xl bg-brand-50 p-4 dark:bg-stone-900">
                <p className="flex items-center gap-2 font-semibold text-brand-800 dark:text-brand-100">
                  <LeafIcon className="size-5" />
                  {promise.title}
                </p>
                <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">{promise.text}</p>
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-3xl border border-stone-200 bg-white p-6 sm:p-8 dark:border-stone-800 dark:bg-stone-900">
          <h3 className="font-serif text-2xl font-semibold">What goes into our jars</h3>
          <dl className="mt-5 space-y-4">
            {INGREDIENTS.map((ingredient) => (
              <div
                key={ingredient.name}
                className="border-b border-stone-100 pb-4 last:border-0 dark:border-stone-800"
              >
                <dt className="font-semibold">{ingredient.name}</dt>
                <dd className="text-sm text-stone-600 dark:text-stone-400">{ingredient.use}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
    </section>
  );
}
