// npm run check:services: tries the configured accounts (Shiprocket, Razorpay, WhatsApp, SMTP, SMS) with
// read-only calls before the first sale. Reads the same configuration as the server (.env, then the environment).
// Exit code 1 when a configured service is not ready, 2 when the configuration itself is invalid.
import { existsSync } from "node:fs";

async function main() {
  if (existsSync(".env")) process.loadEnvFile(".env");
  // Each check prints what went wrong; the clients' own JSON log lines would only repeat it.
  process.env.LOG_LEVEL ||= "silent";
  const { parseEnv } = await import("../server/env.ts");
  const { checkServices, formatCheck } = await import("../server/check-services.ts");
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const checks = await checkServices(env);
  for (const check of checks) console.log(formatCheck(check));
  const failing = checks.filter((check) => check.state === "NOT READY");
  console.log(
    failing.length
      ? `\n${failing.length} configured service(s) not ready: fix the above, then run npm run check:services again.`
      : "\nEvery configured service is ready.",
  );
  return failing.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
