import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_MSG91,
  FAKE_TWILIO,
  type FakeSmsProvider,
  fakeTwilioEnv,
  startFakeSmsProvider,
} from "../../tests/fake-sms-provider.ts";
import { parseEnv } from "../env.ts";
import { createSmsSender, fetchTwilioAccount, matchDltTemplate } from "./sms-sender.ts";

let fake: FakeSmsProvider;
beforeAll(async () => {
  fake = await startFakeSmsProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.state.outage = null;
});

const SMS = {
  to: "+919876543210",
  code: "482913",
  text: "482913 is your Prakriti Naturals sign-in code. It works for 10 minutes. Never share it: we will never ask for it.",
};
const msg91 = (overrides: Record<string, string> = {}) =>
  createSmsSender(
    parseEnv({
      NODE_ENV: "test",
      MSG91_AUTH_KEY: FAKE_MSG91.authKey,
      MSG91_TEMPLATE_ID: FAKE_MSG91.templateId,
      MSG91_API_BASE: fake.base,
      ...overrides,
    }),
  );
const twilio = (overrides: Record<string, string> = {}) =>
  createSmsSender(parseEnv({ NODE_ENV: "test", ...fakeTwilioEnv(fake.base), ...overrides }));

describe("MSG91", () => {
  it("sends the code in the template's otp variable, to the number without its +", async () => {
    const sender = msg91();
    expect(sender.provider).toBe("msg91");
    await sender.send(SMS);
    expect(fake.messages.at(-1)).toEqual({ provider: "msg91", to: "919876543210", code: "482913" });
  });

  it("fails on MSG91's 200 answer of type error (a wrong key), naming no code", async () => {
    const error = await msg91({ MSG91_AUTH_KEY: "wrong" })
      .send(SMS)
      .catch((failure: Error) => failure);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("Authentication failure");
    expect((error as Error).message).not.toContain(SMS.code);
  });

  it("fails when MSG91 answers 500 or drops the connection", async () => {
    fake.state.outage = "500";
    await expect(msg91().send(SMS)).rejects.toThrow(/HTTP 500/);
    fake.state.outage = "down";
    await expect(msg91().send(SMS)).rejects.toThrow(/could not be reached/);
  });
});

describe("Twilio", () => {
  it("posts the whole message as a form with basic authentication", async () => {
    const sender = twilio();
    expect(sender.provider).toBe("twilio");
    await sender.send(SMS);
    expect(fake.messages.at(-1)).toEqual({ provider: "twilio", to: SMS.to, code: SMS.code, body: SMS.text });
  });

  it("sends through a Messaging Service when TWILIO_FROM is one", async () => {
    await twilio({ TWILIO_FROM: `MG${"ab".repeat(16)}` }).send(SMS);
    expect(fake.messages.at(-1)?.provider).toBe("twilio");
  });

  it("fails with Twilio's error code on a wrong token, and on an outage", async () => {
    await expect(twilio({ TWILIO_AUTH_TOKEN: "wrong" }).send(SMS)).rejects.toThrow(
      /HTTP 401\): 20003 Authenticate/,
    );
    fake.state.outage = "500";
    await expect(twilio().send(SMS)).rejects.toThrow(/HTTP 500/);
    fake.state.outage = "down";
    await expect(twilio().send(SMS)).rejects.toThrow(/could not be reached/);
  });
});

describe("Twilio and India's DLT rules", () => {
  it("sends only parameters Twilio documents, and the fake notices one it does not", async () => {
    await twilio().send(SMS);
    await twilio().sendNotice({
      to: SMS.to,
      text: "free text",
      vars: { number: "PN-1", status: "shipped", link: "https://shop.example/orders/PN-1" },
    });
    expect(fake.undocumented).toEqual([]);
    // What a shop inventing a DLT parameter would send: Twilio's Messages resource has none.
    const form = new URLSearchParams({
      To: SMS.to,
      From: FAKE_TWILIO.from,
      Body: SMS.text,
      DltTemplateId: "1",
    });
    await fetch(`${fake.base}/2010-04-01/Accounts/${FAKE_TWILIO.accountSid}/Messages.json`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${FAKE_TWILIO.accountSid}:${FAKE_TWILIO.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form.toString(),
    });
    expect(fake.undocumented.splice(0)).toEqual(["DltTemplateId"]);
  });

  it("sends each notice as the registered order template, whatever its free text", async () => {
    await twilio().sendNotice({
      to: SMS.to,
      text: "Prakriti Naturals: order PN-1 has shipped with Delhivery, tracking DLV1.",
      vars: { number: "PN-1", status: "shipped", link: "https://www.delhivery.com/track/package/DLV1" },
    });
    expect(fake.messages.at(-1)?.body).toBe(
      "Prakriti Naturals: order PN-1 is shipped. See it: https://www.delhivery.com/track/package/DLV1",
    );
    expect(matchDltTemplate(fake.messages.at(-1)?.body ?? "")).toBe("orderNotice");
  });

  it("sends to an order's ten-digit delivery phone in E.164, as Twilio requires", async () => {
    await twilio().send({ ...SMS, to: "9876543210" });
    expect(fake.messages.at(-1)?.to).toBe("+919876543210");
  });

  it("refuses, before calling Twilio, a text that matches no registered template", async () => {
    const requests = fake.state.requests;
    await expect(twilio().send({ ...SMS, text: `${SMS.code} is your code` })).rejects.toThrow(
      /matches no DLT-registered template/,
    );
    expect(fake.state.requests).toBe(requests);
  });

  it("the fake, like India's operators, delivers nothing from an unregistered sender or text", async () => {
    const before = fake.messages.length;
    const post = (body: Record<string, string>) =>
      fetch(`${fake.base}/2010-04-01/Accounts/${FAKE_TWILIO.accountSid}/Messages.json`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${FAKE_TWILIO.accountSid}:${FAKE_TWILIO.authToken}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(body).toString(),
      });
    expect((await post({ To: SMS.to, From: FAKE_TWILIO.from, Body: "Your code is 123456" })).status).toBe(
      201,
    );
    expect(fake.messages).toHaveLength(before);
    expect(fake.undelivered.at(-1)?.reason).toBe("text matches no DLT-registered template");
  });

  it("refuses to start with Twilio but without the DLT ids, naming each, or with a number as sender", () => {
    const configured = {
      TWILIO_ACCOUNT_SID: FAKE_TWILIO.accountSid,
      TWILIO_AUTH_TOKEN: FAKE_TWILIO.authToken,
      TWILIO_FROM: FAKE_TWILIO.from,
    };
    expect(() => parseEnv(configured)).toThrow(
      "Twilio SMS to Indian numbers need the brand's DLT registration: set TWILIO_DLT_ENTITY_ID, TWILIO_DLT_SIGN_IN_TEMPLATE_ID, TWILIO_DLT_ORDER_TEMPLATE_ID",
    );
    expect(() => parseEnv({ ...fakeTwilioEnv(fake.base), TWILIO_DLT_ORDER_TEMPLATE_ID: "" })).toThrow(
      /set TWILIO_DLT_ORDER_TEMPLATE_ID \(README/,
    );
    expect(() => parseEnv({ ...fakeTwilioEnv(fake.base), TWILIO_FROM: "+15005550006" })).toThrow(
      /TWILIO_FROM: must be the DLT-registered sender header/,
    );
    expect(parseEnv(fakeTwilioEnv(fake.base)).TWILIO_DLT_ENTITY_ID).toBe(FAKE_TWILIO.dltEntityId);
  });

  it("reads the account (check:services), and names Twilio's error on a wrong token", async () => {
    await expect(fetchTwilioAccount(parseEnv(fakeTwilioEnv(fake.base)))).resolves.toEqual({
      status: "active",
      friendlyName: "Prakriti Naturals",
    });
    await expect(
      fetchTwilioAccount(parseEnv({ ...fakeTwilioEnv(fake.base), TWILIO_AUTH_TOKEN: "wrong" })),
    ).rejects.toThrow("Twilio refused (HTTP 401): 20003 Authenticate");
  });
});

describe("without a provider", () => {
  it("writes each SMS to DATA_DIR/sms/", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "shop-sms-"));
    try {
      const sender = createSmsSender(parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir }));
      expect(sender.provider).toBe("file");
      await sender.send(SMS);
      const files = await readdir(path.join(dataDir, "sms"));
      expect(files).toHaveLength(1);
      expect(await readFile(path.join(dataDir, "sms", files[0] ?? ""), "utf8")).toBe(
        `To: ${SMS.to}\n\n${SMS.text}\n`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("order notices (free text)", () => {
  const NOTICE = {
    to: "+919876543210",
    text: "Prakriti Naturals: order PN-2026-000001 is cancelled. See it: https://shop.example/orders/PN-2026-000001",
    vars: {
      number: "PN-2026-000001",
      status: "cancelled",
      link: "https://shop.example/orders/PN-2026-000001",
    },
  };

  it("go through Twilio, MSG91's notice template and DATA_DIR/sms/; MSG91 without one declines them", async () => {
    const before = fake.messages.length;
    await expect(twilio().sendNotice(NOTICE)).resolves.toBe(true);
    expect(fake.messages.at(-1)).toMatchObject({ provider: "twilio", to: NOTICE.to, body: NOTICE.text });

    await expect(msg91().sendNotice(NOTICE)).resolves.toBe(false);
    expect(fake.messages).toHaveLength(before + 1);
    await expect(
      msg91({ MSG91_ORDER_TEMPLATE_ID: FAKE_MSG91.orderTemplateId }).sendNotice(NOTICE),
    ).resolves.toBe(true);
    expect(fake.messages.at(-1)).toEqual({
      provider: "msg91",
      to: "919876543210",
      code: "",
      template: FAKE_MSG91.orderTemplateId,
      vars: NOTICE.vars,
    });

    const dataDir = await mkdtemp(path.join(tmpdir(), "shop-sms-"));
    try {
      await createSmsSender(parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir })).sendNotice(NOTICE);
      const files = await readdir(path.join(dataDir, "sms"));
      expect(await readFile(path.join(dataDir, "sms", files[0] ?? ""), "utf8")).toBe(
        `To: ${NOTICE.to}\n\n${NOTICE.text}\n`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("configuration", () => {
  it("refuses half a provider, or two", () => {
    expect(() => parseEnv({ MSG91_AUTH_KEY: "k" })).toThrow(/MSG91_TEMPLATE_ID/);
    expect(() => parseEnv({ TWILIO_ACCOUNT_SID: FAKE_TWILIO.accountSid })).toThrow(
      /missing TWILIO_AUTH_TOKEN, TWILIO_FROM/,
    );
    expect(() =>
      parseEnv({
        MSG91_AUTH_KEY: "k",
        MSG91_TEMPLATE_ID: "t",
        ...fakeTwilioEnv(fake.base),
      }),
    ).toThrow(/not both/);
    expect(() => parseEnv({ TWILIO_ACCOUNT_SID: "nope" })).toThrow(/TWILIO_ACCOUNT_SID/);
  });
});
