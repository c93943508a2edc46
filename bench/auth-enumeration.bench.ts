import { signUpViaApp } from "../tests/accounts.ts";
import { jsonRequest } from "../tests/database.ts";
import { startBenchShop } from "./support.ts";

const ROUNDS = 40;

/**
 * Whether the time of an answer tells a registered address from a new one: sign-up, reset and e-mail link
 * requests, each alternating between an address with an account and one without, ROUNDS times. Prints the
 * median and the interquartile range of each, the ratio of the medians (1.00 is indistinguishable) and the
 * median difference within pairs. The e-mail link does the same work for both by design: its figures show
 * how far apart two identical things measure on this machine.
 */
export default async function benchAuthEnumeration() {
  const shop = await startBenchShop();
  const { app } = shop;
  try {
    const known = [];
    for (let index = 0; index < ROUNDS; index++)
      known.push(await signUpViaApp(app, `known-${index}@example.in`));

    const timed = async (path: string, body: unknown) => {
      const started = performance.now();
      const response = await app.request(
        path,
        jsonRequest({ method: "POST", body, headers: { Origin: "http://localhost:3000" } }),
      );
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      return performance.now() - started;
    };
    const cases = {
      "sign-up": (email: string) =>
        timed("/api/auth/sign-up/email", { name: "Bench", email, password: "a-long-enough-password" }),
      "reset request": (email: string) =>
        timed("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" }),
      "e-mail link request": (email: string) =>
        timed("/api/auth/sign-in/magic-link", { email, callbackURL: "/" }),
    };
    for (const [name, run] of Object.entries(cases)) {
      const registered: number[] = [];
      const unknown: number[] = [];
      for (let index = 0; index < 3; index++)
        await run(`warm-${name.replace(/\W/g, "")}-${index}@example.in`);
      // Alternating, so a slow moment of the machine falls on both sides alike.
      for (let index = 0; index < ROUNDS; index++) {
        registered.push(await run(known[index]?.email ?? ""));
        unknown.push(await run(`new-${name.replace(/\W/g, "")}-${index}@example.in`));
      }
      const [a, b] = [summarise(registered), summarise(unknown)];
      // Pairs taken one right after the other share the machine's moment: their difference is the fairer figure.
      const differences = summarise(registered.map((time, index) => time - (unknown[index] ?? 0)));
      console.log(
        `  ${name}: registered ${a.text}, unknown ${b.text}; median ratio ${(a.median / b.median).toFixed(2)}, median paired difference ${differences.median.toFixed(1)} ms`,
      );
    }
  } finally {
    await shop.stop();
  }
}

function summarise(times: number[]) {
  const sorted = [...times].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const median = at(0.5);
  return {
    median,
    text: `median ${median.toFixed(1)} ms (IQR ${at(0.25).toFixed(1)}-${at(0.75).toFixed(1)})`,
  };
}
