import { Link } from "react-router";
import type { Combo } from "../../../common/catalogue.ts";
import { formatRupees } from "../../../common/money.ts";
import { Thumbnail } from "../../components/card.tsx";
import { CheckIcon, GiftIcon } from "../../components/info-icons.tsx";
import { ScrollSection } from "../../components/scroll-section.tsx";
import { SectionHeading } from "../../components/section-heading.tsx";
import { SECTION_IDS } from "../../lib/go-to-section.ts";

function ComboCard({ combo }: { combo: Combo }) {
  return (
    <article className="relative flex h-full flex-col rounded-2xl border border-stone-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-lg has-focus-visible:ring-4 has-focus-visible:ring-amber-500 dark:border-stone-800 dark:bg-stone-900">
      <span className="self-start rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-900 dark:bg-amber-400 dark:text-stone-950">
        {combo.badge}
      </span>
      {combo.ownPicture ? (
        <Thumbnail
          src={combo.image.small}
          alt={combo.products.map((product) => product.name).join(", ")}
          loading="lazy"
          decoding="async"
          className="my-5 aspect-square w-full rounded-xl bg-stone-100 object-cover dark:bg-stone-800"
          size={400}
        />
      ) : (
        <ul className="my-5 flex justify-center -space-x-4" aria-label="In this combo">
          {combo.products.slice(0, 3).map((product) => (
            <li key={product.slug}>
              <Thumbnail
                src={product.image.small}
                alt={product.name}
                title={product.name}
                loading="lazy"
                decoding="async"
                className="size-20 rounded-full border-4 border-white bg-stone-100 object-cover shadow sm:size-22 dark:border-stone-900 dark:bg-stone-800"
                size={88}
              />
            </li>
          ))}
        </ul>
      )}
      <h3 className="font-serif text-xl font-semibold">
        <Link to={`/combo/${combo.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
          {combo.title}
        </Link>
      </h3>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{combo.description}</p>
      <ul className="mt-4 space-y-1.5 text-sm">
        {combo.benefits.map((benefit) => (
          <li key={benefit} className="flex items-center gap-2">
            <CheckIcon className="size-4 shrink-0 text-brand-700 dark:text-brand-100" />
            {benefit}
          </li>
        ))}
      </ul>
      <div className="mt-auto flex flex-wrap items-baseline gap-x-2 gap-y-1 pt-5">
        <span className="text-2xl font-bold">{formatRupees(combo.salePricePaise)}</span>
        <s className="text-stone-500 dark:text-stone-400">
          <span className="sr-only">was </span>
          {formatRupees(combo.originalPricePaise)}
        </s>
        <span className="rounded-md bg-brand-50 px-2 py-0.5 text-sm font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100">
          Save {formatRupees(combo.savingsPaise)}
        </span>
      </div>
    </article>
  );
}

/** The four bundles from GET /api/combos; each opens its combo page. */
export function CombosSection({ combos }: { combos: Combo[] }) {
  return (
    <ScrollSection id={SECTION_IDS.combos} className="bg-stone-100 focus:outline-none dark:bg-stone-900/50">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
        <SectionHeading id="combos-heading" eyebrow="Better together" title="Combos & Gifting">
          Complete routines in one box, for yourself or someone you love, at a better price.
        </SectionHeading>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {combos.map((combo) => (
            <li key={combo.id}>
              <ComboCard combo={combo} />
            </li>
          ))}
        </ul>
        <p className="mx-auto mt-8 flex max-w-2xl items-center justify-center gap-2 text-center text-sm text-stone-700 dark:text-stone-300">
          <GiftIcon className="size-5 shrink-0 text-brand-700 dark:text-brand-100" />
          All combos come in eco-friendly packaging. Free gift wrapping is available on request.
        </p>
      </div>
    </ScrollSection>
  );
}
