import { jobHandlers } from "../server/job-handlers.ts";
import { startJobWorker } from "../server/jobs/job-queue.ts";
import { startFakeRazorpay } from "../tests/fake-razorpay.ts";
import { startFakeShiprocket } from "../tests/fake-shiprocket.ts";
import { castForModel, runMoneyModel } from "../tests/money-model.ts";
import { startBenchShop } from "./support.ts";

/**
 * npm run bench -- money-model: the model-based test of money (tests/money-model.ts) run longer than `npm test`
 * runs it, from a new seed each time (or MONEY_MODEL_SEED), on the embedded PostgreSQL with the shop's job worker
 * and local fakes of Razorpay and Shiprocket. It measures correctness, not speed: it prints how many
 * interleavings and steps ran, in how long, and what they reached; on a failure, fast-check's report with the
 * seed and the shrunk steps.
 */
const RUNS = Number(process.env.MONEY_MODEL_RUNS ?? 150);
const STEPS = 60;

export default async function moneyModelBench() {
  const fake = await startFakeRazorpay();
  const shiprocket = await startFakeShiprocket();
  const shop = await startBenchShop({ ...fake.env, ...shiprocket.env });
  const stopWorker = startJobWorker({
    db: shop.db,
    signal: shop.deps.jobs,
    handlers: jobHandlers(shop.deps),
    pollMs: 200,
    retryBaseMs: 50,
  });
  const seed = Number(process.env.MONEY_MODEL_SEED ?? Date.now() % 2_147_483_647);
  try {
    const cast = await castForModel(shop, "bench-model");
    const started = performance.now();
    const tally = await runMoneyModel(shop, fake, cast, {
      seed,
      numRuns: RUNS,
      maxSteps: STEPS,
      shiprocket,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`\nmoney model, seed ${seed}: ${RUNS} interleavings of up to ${STEPS} steps`);
    console.log(
      `  ${tally.steps ?? 0} steps in ${seconds.toFixed(0)} s, every one checked: the books added up`,
    );
    const reached = Object.entries(tally)
      .filter(([name]) => name !== "steps")
      .sort(([a], [b]) => a.localeCompare(b));
    for (const [name, times] of reached) console.log(`  ${name}: ${times}`);
  } finally {
    await stopWorker();
    await shop.stop();
    await fake.stop();
    await shiprocket.stop();
  }
}
