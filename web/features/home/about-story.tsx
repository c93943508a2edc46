/** The brand's story: in the Learn More pop-up and at the top of the About section. */
export function AboutStory({ shopName }: { shopName: string }) {
  return (
    <div className="space-y-3 text-stone-700 dark:text-stone-300">
      <p>
        {shopName} began in a family kitchen, with recipes handed down for generations: the weekly oil bath,
        the nalangu maavu our grandmothers mixed for every child's bath, the health mix stirred into morning
        milk.
      </p>
      <p>
        We still make everything that way, in small batches, from whole herbs, grains, flowers and
        cold-pressed oils that we sun-dry, roast and stone-grind ourselves. No parabens, no sulphates, no
        artificial colours, fragrances or preservatives.
      </p>
      <p>
        Every product lists every ingredient, with how to use it. If you are unsure what suits you, write to
        us: a person, not a bot, will answer.
      </p>
    </div>
  );
}
