import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeRazorpay, startFakeRazorpay } from "../tests/fake-razorpay.ts";
import { type FakeShiprocket, startFakeShiprocket } from "../tests/fake-shiprocket.ts";
import { type FakeSmsProvider, fakeTwilioEnv, startFakeSmsProvider } from "../tests/fake-sms-provider.ts";
import { startFakeWhatsApp, whatsAppEnv } from "../tests/fake-whatsapp.ts";
import { checkServices, formatCheck } from "./check-services.ts";
import { parseEnv } from "./env.ts";

let shiprocket: FakeShiprocket;
let razorpay: FakeRazorpay;
let whatsapp: Awaited<ReturnType<typeof startFakeWhatsApp>>;
let sms: FakeSmsProvider;
let smtp: SMTPServer;
let smtpPort: number;
let mailsSent = 0;

beforeAll(async () => {
  [shiprocket, razorpay, whatsapp, sms] = await Promise.all([
    startFakeShiprocket(),
    startFakeRazorpay(),
    startFakeWhatsApp(),
    startFakeSmsProvider(),
  ]);
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "shop" && auth.password === "mail-secret")
        return callback(null, { user: "shop" });
      callback(new Error("Invalid username or password"));
    },
    onData(stream, _session, callback) {
      mailsSent++;
      stream.resume();
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all([shiprocket.stop(), razorpay.stop(), whatsapp.close(), sms.close()]);
  await new Promise<void>((resolve) => smtp.close(resolve));
});

/** Every service configured against the local fakes, each with the right credentials. */
const rightEnv = () => ({
  NODE_ENV: "test",
  ...shiprocket.env,
  ...razorpay.env,
  ...whatsAppEnv(whatsapp.base),
  ...fakeTwilioEnv(sms.base),
  SMTP_URL: `smtp://shop:mail-secret@127.0.0.1:${smtpPort}`,
});

const linesFor = async (source: Record<string, string>) =>
  (await checkServices(parseEnv(source))).map(formatCheck);

describe("npm run check:services", () => {
  it("says ready for each service with the right credentials, using read-only calls", async () => {
    const calls = shiprocket.calls.length;
    const orders = razorpay.orders.size;
    const smsRequests = sms.state.requests;
    const lines = await linesFor(rightEnv());
    expect(lines).toEqual([
      `Shiprocket ready: signed in as ${shiprocket.email}; pickup "Primary" (PIN 560038) is served by ${lines[0]?.match(/served by (\d+)/)?.[1]} courier(s) for COD`,
      `Razorpay   ready: the key ${razorpay.keyId} works (TEST mode: no real money moves; use the rzp_live_ key to sell)`,
      `WhatsApp   ready: +91 98765 00000 (Prakriti Naturals); templates "cod_confirm", "order_update" approved in en`,
      `SMTP       ready: 127.0.0.1:${smtpPort} greets and accepts the shop's sign-in; no mail was sent`,
      "SMS        ready: Twilio account AC0123456789abcdef0123456789abcdef is active; sender PRKRTI, DLT entity 1101234567890123456, TWILIO_DLT_SIGN_IN_TEMPLATE_ID=1107123456789012345, TWILIO_DLT_ORDER_TEMPLATE_ID=1107123456789012346 (these must be registered with Twilio too)",
    ]);
    expect(Number(lines[0]?.match(/served by (\d+)/)?.[1])).toBeGreaterThan(0);
    // Nothing was booked, ordered, sent or mailed.
    expect(shiprocket.calls.slice(calls)).toEqual([
      "POST /auth/login",
      "GET /settings/company/pickup",
      "GET /courier/serviceability",
    ]);
    expect(razorpay.orders.size).toBe(orders);
    expect(whatsapp.messages).toEqual([]);
    expect(sms.messages).toEqual([]);
    expect(sms.state.requests).toBe(smsRequests + 1);
    expect(mailsSent).toBe(0);
    expect(shiprocket.undocumented).toEqual([]);
    expect(sms.undocumented).toEqual([]);
  });

  it("says exactly what is wrong, and where to fix it, with wrong credentials", async () => {
    const approved = whatsapp.templates.map((template) => ({ ...template }));
    const codConfirm = whatsapp.templates.find((template) => template.name === "cod_confirm");
    if (codConfirm) codConfirm.status = "PENDING";
    try {
      const lines = await linesFor({
        ...rightEnv(),
        SHIPROCKET_PASSWORD: "wrong",
        RAZORPAY_KEY_SECRET: "wrong",
        TWILIO_AUTH_TOKEN: "wrong",
        SMTP_URL: `smtp://shop:wrong@127.0.0.1:${smtpPort}`,
      });
      expect(lines).toEqual([
        "Shiprocket NOT READY: Shiprocket refused the shop's API user. Check SHIPROCKET_EMAIL and SHIPROCKET_PASSWORD.",
        "Razorpay   NOT READY: Razorpay refused the key (401: Authentication failed). Fix RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET: Dashboard > Account & Settings > API Keys.",
        `WhatsApp   NOT READY: WHATSAPP_TEMPLATE_COD_CONFIRM: "cod_confirm" (en) is PENDING, not APPROVED (WhatsApp Manager > Message templates)`,
        expect.stringMatching(
          new RegExp(
            `^SMTP       NOT READY: 127\\.0\\.0\\.1:${smtpPort}: Invalid login: 535 .*\\. Check SMTP_URL \\(host, port, user and password\\)\\.$`,
          ),
        ),
        "SMS        NOT READY: Twilio refused (HTTP 401): 20003 Authenticate. Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (Twilio Console > Account Info).",
      ]);
    } finally {
      whatsapp.templates.splice(0, whatsapp.templates.length, ...approved);
    }
  });

  it("names a pickup location that does not exist, a template in another language, a wrong number id", async () => {
    const lines = await linesFor({
      ...rightEnv(),
      SHIPROCKET_PICKUP_LOCATION: "Warehouse",
      WHATSAPP_TEMPLATE_LANGUAGE: "hi",
    });
    expect(lines[0]).toBe(
      'Shiprocket NOT READY: Shiprocket has no pickup address named "Warehouse" (it has "Primary"). Check SHIPROCKET_PICKUP_LOCATION.',
    );
    expect(lines[2]).toBe(
      'WhatsApp   NOT READY: WHATSAPP_TEMPLATE_COD_CONFIRM: "cod_confirm" exists in en, not in WHATSAPP_TEMPLATE_LANGUAGE=hi; WHATSAPP_TEMPLATE_ORDER_UPDATE: "order_update" exists in en, not in WHATSAPP_TEMPLATE_LANGUAGE=hi',
    );
    const [, , wrongNumber] = await linesFor({ ...rightEnv(), WHATSAPP_PHONE_NUMBER_ID: "999" });
    expect(wrongNumber).toMatch(
      /^WhatsApp {3}NOT READY: the phone number id 999: Meta refused \(400, code 100\): Unsupported get request\. .* Check WHATSAPP_ACCESS_TOKEN/,
    );
  });

  it("reports a service that is not configured as such, not as an error", async () => {
    expect(await linesFor({ NODE_ENV: "test" })).toEqual([
      "Shiprocket not configured: staff book couriers by hand (SHIPROCKET_EMAIL, _PASSWORD, _PICKUP_LOCATION)",
      "Razorpay   not configured: the shop takes cash on delivery only (RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET)",
      "WhatsApp   not configured: COD questions and notices go by SMS (WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID)",
      "SMTP       not configured: mail is written to DATA_DIR/mail/, not sent (SMTP_URL)",
      "SMS        not configured: no sign-in by mobile; codes are written to DATA_DIR/sms/ in development",
    ]);
  });

  it("as a script: exit 0 when ready, 1 when a configured service is not, 2 on a missing DLT id", async () => {
    const run = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/check-services.ts"], {
        env: { PATH: process.env.PATH ?? "", ...env },
        cwd: process.cwd(),
      }).then(
        (done) => ({ code: 0, out: done.stdout, err: done.stderr }),
        (failed: { code: number; stdout: string; stderr: string }) => ({
          code: failed.code,
          out: failed.stdout,
          err: failed.stderr,
        }),
      );
    const good = await run(rightEnv());
    expect(good.code).toBe(0);
    expect(good.out).toContain("Every configured service is ready.");
    const bad = await run({ ...rightEnv(), RAZORPAY_KEY_SECRET: "wrong" });
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("Razorpay   NOT READY: Razorpay refused the key");
    expect(bad.out).toContain("1 configured service(s) not ready");
    const noDlt = await run({ ...rightEnv(), TWILIO_DLT_SIGN_IN_TEMPLATE_ID: "" });
    expect(noDlt.code).toBe(2);
    expect(noDlt.err).toContain(
      "TWILIO_DLT_SIGN_IN_TEMPLATE_ID: Twilio SMS to Indian numbers need the brand's DLT registration: set TWILIO_DLT_SIGN_IN_TEMPLATE_ID",
    );
  }, 60_000);
});
