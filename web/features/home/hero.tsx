import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import type { HeroSlide } from "../../../common/schemas/hero-slides.ts";
import { Button, buttonClass } from "../../components/button.tsx";
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from "../../components/icons.tsx";
import { LazyDialog } from "../../components/lazy-dialog.tsx";
import { imageSrcSet } from "../../lib/document-head.ts";
import { useGoToSection } from "../../lib/go-to-section.ts";
import { REDUCED_MOTION, useMediaQuery } from "../../lib/use-media-query.ts";
import { AboutStory } from "./about-story.tsx";
import { HERO_IMAGE_SIZES, HERO_TONE_CLASSES } from "./hero-slides.ts";

/** Spec: the hero moves to the next slide every 8 seconds. */
export const HERO_ROTATION_MS = 8000;

/** A slide picture's box: the picture, or its place until it is fetched. */
const pictureBox = "order-1 mx-auto aspect-square w-3/5 max-w-[420px] rounded-3xl md:order-2 md:w-full";

const controlClass =
  "inline-flex size-11 items-center justify-center rounded-full bg-white/80 text-stone-800 shadow hover:bg-white dark:bg-stone-800/80 dark:text-stone-100 dark:hover:bg-stone-800";

/**
 * A carousel (APG pattern): it rotates on its own, and pauses while the pointer is over it, while
 * focus is inside it, when the visitor asked for reduced motion, or when they press pause.
 */
export function Hero({ shopName, slides }: { shopName: string; slides: HeroSlide[] }) {
  const [current, setCurrent] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const [aboutOpen, setAboutOpen] = useState(false);
  const reducedMotion = useMediaQuery(REDUCED_MOTION);
  const goToSection = useGoToSection();
  const id = useId();
  const count = slides.length;
  const rotating = !(hovered || focused || stopped || reducedMotion || aboutOpen);
  // The other slides' pictures wait for the page's load event: stacked under the first one they count as
  // on screen, and would be fetched at high priority beside the first slide's picture (the page's LCP).
  const [othersWanted, setOthersWanted] = useState(false);
  useEffect(() => {
    const want = () => setOthersWanted(true);
    if (document.readyState === "complete") return want();
    window.addEventListener("load", want, { once: true });
    return () => window.removeEventListener("load", want);
  }, []);

  useEffect(() => {
    if (!rotating) return;
    // Keyed on the current slide, so a slide picked by hand also gets its full 8 seconds.
    const timer = window.setTimeout(() => setCurrent((current + 1) % count), HERO_ROTATION_MS);
    return () => window.clearTimeout(timer);
  }, [rotating, current, count]);

  const show = (index: number) => setCurrent((index + count) % count);

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Highlights"
      className="relative"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="relative grid" aria-live={rotating ? "off" : "polite"} id={`${id}-slides`}>
        {slides.map((slide, index) => {
          const active = index === current;
          return (
            // biome-ignore lint/a11y/useSemanticElements: the APG carousel pattern: a group with aria-roledescription="slide"
            <div
              key={slide.position}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
              aria-hidden={!active}
              inert={!active}
              data-active={active || undefined}
              className={`col-start-1 row-start-1 bg-gradient-to-br transition-opacity duration-700 ${HERO_TONE_CLASSES[slide.tone]} ${
                active ? "opacity-100" : "pointer-events-none opacity-0"
              }`}
            >
              <div className="mx-auto grid max-w-7xl items-center gap-6 px-4 pt-8 pb-20 md:grid-cols-[1.2fr_1fr] md:gap-10 md:py-16">
                <div className="order-2 md:order-1">
                  <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase dark:text-brand-100">
                    {slide.eyebrow}
                  </p>
                  <h2 className="mt-2 font-serif text-3xl leading-tight font-semibold text-stone-900 sm:text-4xl lg:text-5xl dark:text-white">
                    {slide.heading}
                  </h2>
                  <p className="mt-4 max-w-xl text-base text-stone-700 sm:text-lg dark:text-stone-300">
                    {slide.text}
                  </p>
                  <div className="mt-6 flex flex-wrap gap-3">
                    <Link
                      to={slide.buttonTarget}
                      onClick={(event) => {
                        // A section of this page is scrolled to, as the header's links do.
                        const section = slide.buttonTarget.match(/^\/#(.+)$/)?.[1];
                        if (!section) return;
                        event.preventDefault();
                        goToSection(section);
                      }}
                      className={`${buttonClass({ variant: "brand", size: "lg" })} shadow`}
                    >
                      {slide.buttonLabel}
                    </Link>
                    <button
                      type="button"
                      onClick={() => setAboutOpen(true)}
                      aria-haspopup="dialog"
                      className="rounded-full border-2 border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50 dark:border-brand-100 dark:text-brand-100 dark:hover:bg-stone-800"
                    >
                      Learn More
                    </button>
                  </div>
                </div>
                {index === 0 || active || othersWanted ? (
                  <img
                    src={slide.image.large}
                    srcSet={imageSrcSet(slide.image)}
                    sizes={HERO_IMAGE_SIZES}
                    width={800}
                    height={800}
                    alt={slide.imageAlt}
                    loading={index === 0 ? "eager" : "lazy"}
                    fetchPriority={index === 0 ? "high" : "auto"}
                    decoding="async"
                    className={`${pictureBox} shadow-xl`}
                  />
                ) : (
                  // Holds the picture's place, so the carousel's height is the same before and after.
                  <div className={pictureBox} />
                )}
              </div>
            </div>
          );
        })}
      </div>

      <div className="absolute inset-x-0 bottom-4 flex items-center justify-center gap-2 px-4">
        <button
          type="button"
          className={controlClass}
          onClick={() => show(current - 1)}
          aria-label="Previous slide"
          aria-controls={`${id}-slides`}
        >
          <ChevronLeftIcon />
        </button>
        <div className="flex items-center">
          {slides.map((slide, index) => (
            <button
              key={slide.position}
              type="button"
              onClick={() => show(index)}
              aria-label={`Slide ${index + 1}: ${slide.eyebrow}`}
              aria-current={index === current ? "true" : undefined}
              aria-controls={`${id}-slides`}
              className="group flex h-11 w-9 items-center justify-center rounded-full sm:w-11"
            >
              <span
                className={`block h-2.5 rounded-full transition-all ${
                  index === current
                    ? "w-6 bg-brand-700 dark:bg-brand-100"
                    : "w-2.5 bg-stone-400 group-hover:bg-stone-600 dark:bg-stone-500"
                }`}
              />
            </button>
          ))}
        </div>
        <button
          type="button"
          className={controlClass}
          onClick={() => show(current + 1)}
          aria-label="Next slide"
          aria-controls={`${id}-slides`}
        >
          <ChevronRightIcon />
        </button>
        <button
          type="button"
          className={controlClass}
          onClick={() => setStopped(!stopped)}
          aria-label={stopped ? "Start automatic slide show" : "Stop automatic slide show"}
        >
          {stopped ? <PlayIcon /> : <PauseIcon />}
        </button>
      </div>

      <LazyDialog open={aboutOpen} onClose={() => setAboutOpen(false)} title={`About ${shopName}`}>
        <AboutStory shopName={shopName} />
        <Button type="button" onClick={() => setAboutOpen(false)} variant="brand" className="mt-6 self-start">
          Continue shopping
        </Button>
      </LazyDialog>
    </section>
  );
}
