/** Runs `operation` back to back from `concurrency` callers for `durationMs`; returns operations per second. */
export async function measure(
  operation: (iteration: number) => Promise<unknown>,
  { durationMs = 2000, concurrency = 1, warmup = 50 } = {},
): Promise<number> {
  for (let i = 0; i < warmup; i++) await operation(i);
  let done = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      await operation(done);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - started) / 1000);
}

export type Row = { name: string; opsPerSecond: number };

/** A table of operations per second and their ratio to the first row (the baseline). */
export function printRatios(rows: readonly Row[]) {
  const [baseline] = rows;
  if (!baseline) return;
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const ratio = row.opsPerSecond / baseline.opsPerSecond;
    console.log(
      `${row.name.padEnd(width)}  ${row.opsPerSecond.toFixed(0).padStart(7)} ops/s  ${ratio.toFixed(3).padStart(6)}× baseline`,
    );
  }
}
