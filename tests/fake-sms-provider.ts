import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { TWILIO_DLT_TEMPLATES } from "../server/sms/sms-sender.ts";
import { readBody, send } from "./fake-http.ts";

export const FAKE_MSG91 = {
  authKey: "fake-msg91-auth-key",
  templateId: "fake-template-id",
  orderTemplateId: "fake-order-template-id",
};
export const FAKE_TWILIO = {
  accountSid: `AC${"0123456789abcdef".repeat(2)}`,
  authToken: "fake-twilio-auth-token",
  /** The brand's DLT-registered sender header, registered with Twilio too. */
  from: "PRKRTI",
  dltEntityId: "1101234567890123456",
  signInTemplateId: "1107123456789012345",
  orderTemplateId: "1107123456789012346",
};

/** The environment that points the shop at this fake's Twilio with a complete DLT registration. */
export const fakeTwilioEnv = (base: string) => ({
  TWILIO_ACCOUNT_SID: FAKE_TWILIO.accountSid,
  TWILIO_AUTH_TOKEN: FAKE_TWILIO.authToken,
  TWILIO_FROM: FAKE_TWILIO.from,
  TWILIO_DLT_ENTITY_ID: FAKE_TWILIO.dltEntityId,
  TWILIO_DLT_SIGN_IN_TEMPLATE_ID: FAKE_TWILIO.signInTemplateId,
  TWILIO_DLT_ORDER_TEMPLATE_ID: FAKE_TWILIO.orderTemplateId,
  TWILIO_API_BASE: base,
});

/**
 * The parameters of Twilio's Create a Message (POST /2010-04-01/Accounts/{AccountSid}/Messages.json), from
 * Twilio's OpenAPI description twilio/twilio-oai spec/json/twilio_api_v2010.json (April 2026). None is about DLT:
 * Twilio takes the entity and template ids on its India sender ID registration form instead.
 */
export const TWILIO_MESSAGE_PARAMETERS = new Set([
  "AddressRetention",
  "ApplicationSid",
  "Attempt",
  "Body",
  "ContentRetention",
  "ContentSid",
  "ContentVariables",
  "FallbackFrom",
  "ForceDelivery",
  "From",
  "MaxPrice",
  "MediaUrl",
  "MessagingServiceSid",
  "PersistentAction",
  "ProvideFeedback",
  "RiskCheck",
  "ScheduleType",
  "SendAsMms",
  "SendAt",
  "ShortenUrls",
  "SmartEncoded",
  "StatusCallback",
  "To",
  "TrafficType",
  "ValidityPeriod",
]);

/**
 * The templates the brand registered on its DLT portal and with Twilio, by template id: what Indian operators
 * let through from the header. A brand registers the shop's own texts (server/sms/sms-sender.ts).
 */
const REGISTERED_TEMPLATES: Record<string, string> = {
  [FAKE_TWILIO.signInTemplateId]: TWILIO_DLT_TEMPLATES.signIn.text,
  [FAKE_TWILIO.orderTemplateId]: TWILIO_DLT_TEMPLATES.orderNotice.text,
};
const registeredTemplateOf = (text: string) =>
  Object.keys(REGISTERED_TEMPLATES).find((id) => {
    const parts = (REGISTERED_TEMPLATES[id] ?? "").split("{#var#}");
    const pattern = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+");
    return new RegExp(`^${pattern}$`, "s").test(text);
  }) ?? null;

/**
 * One message the fake accepted: the number as the provider got it, and the code it carried; an MSG91 order
 * notice names its template and carries its variables instead.
 */
export type FakeSms = {
  provider: "msg91" | "twilio";
  to: string;
  code: string;
  body?: string;
  template?: string;
  vars?: Record<string, string>;
};

/**
 * A local copy of the two SMS APIs the shop speaks, on 127.0.0.1: MSG91's Flow API (`POST /api/v5/flow`, the
 * `authkey` header, a template id and `recipients[].mobiles` without the +, answering `{"type":"success"}` or
 * `{"type":"error"}`) and Twilio's Messages resource (`POST /2010-04-01/Accounts/{sid}/Messages.json`, HTTP
 * basic authentication, a form with To, From and Body, answering 201 with a `sid` or an error object) and its
 * Fetch an Account (`GET /2010-04-01/Accounts/{sid}.json`, 200 with sid, friendly_name, status and type, or
 * 401 with code 20003). The shop reaches it through MSG91_API_BASE or TWILIO_API_BASE set to `base`.
 *
 * Sources for Twilio: the OpenAPI description twilio/twilio-oai spec/json/twilio_api_v2010.json (the message
 * parameters, TWILIO_MESSAGE_PARAMETERS, and the account's fields); error 20003 on twilio.com/docs/api/errors;
 * for India, twilio.com/guidelines/in/sms (a numeric sender reaches Indian phones as a random short code) and
 * Twilio's "Documents Required and Instructions to Register Your Alphanumeric Sender ID in India"
 * (support.twilio.com/hc/en-us/articles/21162166457755: the header, entity id and templates are registered with
 * Twilio, and operators let through only whitelisted templates from the header). So, as the operators do, a
 * message to +91 from another sender, or whose text matches no registered template, is accepted (201) and never
 * delivered: it lands in `undelivered`, not `messages`. A parameter Twilio does not document lands in
 * `undocumented`, which the shop's tests require to stay empty.
 */
export async function startFakeSmsProvider() {
  const messages: FakeSms[] = [];
  /** Messages Twilio accepted that Indian operators drop (DLT), with why. */
  const undelivered: { to: string; body: string; reason: string }[] = [];
  /** Form parameters the shop sent that Twilio's Messages resource does not document. */
  const undocumented: string[] = [];
  /** "500": the provider answers an error; "down": it drops the connection. */
  const state: { outage: "500" | "down" | null; requests: number } = { outage: null, requests: 0 };
  const waiters: (() => void)[] = [];

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => send(response, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    state.requests++;
    const url = new URL(request.url ?? "/", base);
    const raw = await readBody(request);
    if (state.outage === "down") {
      request.socket.destroy();
      return;
    }
    if (request.method === "POST" && url.pathname === "/api/v5/flow") return msg91(request, response, raw);
    const twilioPath = url.pathname.match(/^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/);
    if (request.method === "POST" && twilioPath) return twilio(request, response, raw, twilioPath[1] ?? "");
    const accountPath = url.pathname.match(/^\/2010-04-01\/Accounts\/([^/]+)\.json$/);
    if (request.method === "GET" && accountPath)
      return twilioAccount(request, response, accountPath[1] ?? "");
    send(response, 404, { message: "not found" });
  }

  function msg91(request: IncomingMessage, response: ServerResponse, raw: string) {
    if (state.outage === "500") return send(response, 500, { type: "error", message: "Internal error" });
    // MSG91 reports a wrong key with 200 and type "error"; the shop must not take that for a success.
    if (request.headers.authkey !== FAKE_MSG91.authKey) {
      return send(response, 200, { type: "error", message: "Authentication failure", code: "201" });
    }
    const body = JSON.parse(raw) as {
      template_id?: string;
      recipients?: ({ mobiles?: string; otp?: string } & Record<string, string>)[];
    };
    const recipient = body.recipients?.[0];
    const notice = body.template_id === FAKE_MSG91.orderTemplateId;
    if (
      (body.template_id !== FAKE_MSG91.templateId && !notice) ||
      !recipient?.mobiles ||
      !/^91[6-9]\d{9}$/.test(recipient.mobiles)
    ) {
      return send(response, 400, { type: "error", message: "Invalid template or mobile" });
    }
    if (notice) {
      const { mobiles, ...vars } = recipient;
      // A DLT template's variables must all be filled, or MSG91 refuses the message.
      if (!vars.number || !vars.status || !vars.link) {
        return send(response, 400, { type: "error", message: "Template variables missing" });
      }
      record({ provider: "msg91", to: mobiles, code: "", template: body.template_id, vars });
    } else {
      record({ provider: "msg91", to: recipient.mobiles, code: String(recipient.otp ?? "") });
    }
    send(response, 200, { type: "success", message: "3263686f6e6c696e65" });
  }

  const twilioAuthorized = (request: IncomingMessage, sid: string) =>
    sid === FAKE_TWILIO.accountSid &&
    request.headers.authorization ===
      `Basic ${Buffer.from(`${FAKE_TWILIO.accountSid}:${FAKE_TWILIO.authToken}`).toString("base64")}`;

  function twilioAccount(request: IncomingMessage, response: ServerResponse, sid: string) {
    if (state.outage === "500") {
      return send(response, 500, { code: 20500, message: "Internal Server Error", status: 500 });
    }
    if (!twilioAuthorized(request, sid)) {
      return send(response, 401, { code: 20003, message: "Authenticate", status: 401 });
    }
    send(response, 200, { sid, friendly_name: "Prakriti Naturals", status: "active", type: "Full" });
  }

  function twilio(request: IncomingMessage, response: ServerResponse, raw: string, sid: string) {
    if (state.outage === "500") {
      return send(response, 500, { code: 20500, message: "Internal Server Error", status: 500 });
    }
    if (!twilioAuthorized(request, sid)) {
      return send(response, 401, { code: 20003, message: "Authenticate", status: 401 });
    }
    if (!String(request.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) {
      return send(response, 400, { code: 20001, message: "Expected a form", status: 400 });
    }
    const form = new URLSearchParams(raw);
    const to = form.get("To") ?? "";
    const text = form.get("Body") ?? "";
    if (!/^\+[1-9]\d{6,14}$/.test(to)) {
      return send(response, 400, {
        code: 21211,
        message: `The 'To' number ${to} is not a valid phone number.`,
        status: 400,
      });
    }
    if (form.get("From") !== FAKE_TWILIO.from && !form.get("MessagingServiceSid")) {
      return send(response, 400, { code: 21603, message: "A 'From' phone number is required.", status: 400 });
    }
    for (const name of form.keys()) if (!TWILIO_MESSAGE_PARAMETERS.has(name)) undocumented.push(name);
    const answer = { sid: `SM${"a".repeat(32)}`, status: "queued", to, body: text };
    if (to.startsWith("+91")) {
      const sender = form.get("From") ?? form.get("MessagingServiceSid");
      const reason =
        sender !== FAKE_TWILIO.from && !form.get("MessagingServiceSid")
          ? "sender is not the DLT-registered header"
          : registeredTemplateOf(text) === null
            ? "text matches no DLT-registered template"
            : null;
      if (reason) {
        undelivered.push({ to, body: text, reason });
        return send(response, 201, answer);
      }
    }
    record({ provider: "twilio", to, code: text.match(/\d{6}/)?.[0] ?? "", body: text });
    send(response, 201, answer);
  }

  function record(message: FakeSms) {
    messages.push(message);
    for (const wake of waiters.splice(0)) wake();
  }

  return {
    base,
    messages,
    undelivered,
    undocumented,
    state,
    /** The latest code sent to the number (E.164 or without the +), waiting for its SMS to arrive. */
    async codeFor(number: string, { after = 0, timeoutMs = 10_000 } = {}): Promise<string> {
      const wanted = number.replace(/^\+/, "");
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.slice(after).findLast((message) => message.to.replace(/^\+/, "") === wanted);
        if (found) return found.code;
        if (Date.now() > deadline) throw new Error(`no SMS reached ${number}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeSmsProvider = Awaited<ReturnType<typeof startFakeSmsProvider>>;
