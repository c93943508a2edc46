import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, send } from "./fake-http.ts";

export const FAKE_WHATSAPP = {
  accessToken: "fake-whatsapp-access-token",
  phoneNumberId: "106540352242922",
  appSecret: "fake-whatsapp-app-secret",
  verifyToken: "fake-verify-token",
  templates: { codConfirm: "cod_confirm", orderUpdate: "order_update", cartReminder: "cart_reminder" },
  businessAccountId: "102290129340398",
  displayPhoneNumber: "+91 98765 00000",
  verifiedName: "Prakriti Naturals",
};

/** The settings a shop needs to speak to this fake (WHATSAPP_API_URL is `base`). */
export const whatsAppEnv = (base: string) => ({
  WHATSAPP_ACCESS_TOKEN: FAKE_WHATSAPP.accessToken,
  WHATSAPP_PHONE_NUMBER_ID: FAKE_WHATSAPP.phoneNumberId,
  WHATSAPP_APP_SECRET: FAKE_WHATSAPP.appSecret,
  WHATSAPP_VERIFY_TOKEN: FAKE_WHATSAPP.verifyToken,
  WHATSAPP_API_URL: base,
  WHATSAPP_TEMPLATE_COD_CONFIRM: FAKE_WHATSAPP.templates.codConfirm,
  WHATSAPP_TEMPLATE_ORDER_UPDATE: FAKE_WHATSAPP.templates.orderUpdate,
  WHATSAPP_BUSINESS_ACCOUNT_ID: FAKE_WHATSAPP.businessAccountId,
});

/** The WhatsApp settings of a shop that also sends cart reminders (docs/decisions/096). */
export const whatsAppReminderEnv = (base: string) => ({
  ...whatsAppEnv(base),
  WHATSAPP_TEMPLATE_CART_REMINDER: FAKE_WHATSAPP.templates.cartReminder,
});

/**
 * The templates as the business account approved them: category, how many body variables, and each button's
 * kind in order (a URL button here has a variable at the end of its URL). Meta checks a send against its
 * template: a body parameter too many or too few, or a button parameter missing, is error 132000.
 */
const TEMPLATE_SHAPES: Record<
  string,
  { category: "UTILITY" | "MARKETING"; body: number; buttons: ("quick_reply" | "url")[] }
> = {
  [FAKE_WHATSAPP.templates.codConfirm]: {
    category: "UTILITY",
    body: 4,
    buttons: ["quick_reply", "quick_reply"],
  },
  [FAKE_WHATSAPP.templates.orderUpdate]: { category: "UTILITY", body: 3, buttons: [] },
  [FAKE_WHATSAPP.templates.cartReminder]: { category: "MARKETING", body: 3, buttons: ["url", "url"] },
};

/** One template message the fake accepted, as the Cloud API received it. */
export type FakeWhatsAppMessage = {
  id: string;
  to: string;
  template: string;
  language: string;
  body: string[];
  /** The quick-reply buttons' payloads, by index. */
  buttons: string[];
  /** The URL buttons' variables (what WhatsApp appends to the template's URL), by index. */
  urlSuffixes: string[];
};

/**
 * The request body fields of a template message in the Cloud API's Messages reference
 * (developers.facebook.com/docs/whatsapp/cloud-api/reference/messages), and of its `template` object.
 */
const DOCUMENTED_MESSAGE_FIELDS = [
  "messaging_product",
  "recipient_type",
  "to",
  "type",
  "template",
  "context",
  "biz_opaque_callback_data",
];
const DOCUMENTED_TEMPLATE_FIELDS = ["name", "language", "components"];
/**
 * A template's components and their parameters, as the Messages reference documents them (components object:
 * type, sub_type, index, parameters; parameter object: type and the field named by it, `parameter_name` for a
 * named variable), and the WhatsApp Node.js SDK's Button Parameter Object (whatsapp.github.io/
 * WhatsApp-Nodejs-SDK/api-reference/types/button_parameter_object: a quick reply's `payload`, a URL button's
 * `text`, "appended to the predefined prefix URL in the template").
 */
const DOCUMENTED_COMPONENT_FIELDS = ["type", "sub_type", "index", "parameters"];
const DOCUMENTED_PARAMETER_FIELDS = [
  "type",
  "text",
  "payload",
  "parameter_name",
  "currency",
  "date_time",
  "image",
  "document",
  "video",
  "location",
  "coupon_code",
  "action",
];

type TemplateComponent = {
  type?: string;
  sub_type?: string;
  index?: string | number;
  parameters?: { type?: string; text?: string; payload?: string }[];
};

/**
 * A local copy of the WhatsApp Business Cloud API's send endpoint, on 127.0.0.1, written from Meta's
 * documentation: `POST /{phone-number-id}/messages` with `Authorization: Bearer <token>` and a JSON body of
 * `messaging_product: "whatsapp"`, `to`, `type: "template"` and `template: {name, language: {code},
 * components}`; it answers 200 `{messaging_product, contacts: [{input, wa_id}], messages: [{id: "wamid..."}]}`
 * or an error object `{error: {message, type, code, error_subcode?, fbtrace_id}}`: 401 with code 190 for a
 * bad token, 400 with code 132001 for a template that does not exist, 400 with code 100 for a bad parameter.
 * Read-only, for `npm run check:services`: `GET /{phone-number-id}?fields=display_phone_number,verified_name`
 * (the WhatsApp Business Phone Number node: id, display_phone_number, verified_name) and
 * `GET /{waba-id}/message_templates?fields=name,status,language` (the WhatsApp Business Account's Message
 * Templates edge: `data` of {name, status (APPROVED, PENDING, REJECTED, PAUSED, DISABLED), language, id} and
 * `paging`), from developers.facebook.com/docs/graph-api/reference/whats-app-business-account-to-number-current-status
 * and /docs/graph-api/reference/whats-app-business-account/message_templates; an unknown id is 400 with code 100.
 * `templates` holds the account's templates; a test changes a status or language there.
 *
 * Cart reminders (docs/decisions/096) are a MARKETING template (developers.facebook.com/documentation/
 * business-messaging/whatsapp/templates/components) with URL buttons whose variable is sent as a button
 * component `{type: "button", sub_type: "url", index, parameters: [{type: "text", text}]}`. A body parameter
 * with a new line, a tab or more than four spaces in a row is refused with 132018. A user who stopped the
 * business's marketing messages in WhatsApp (`stoppedMarketing`) is not reached: the send is accepted and the
 * message's status comes to the webhook as `failed` with error 131050 ("Unable to deliver message: user has
 * stopped marketing messages", developers.facebook.com/documentation/business-messaging/whatsapp/support/
 * error-codes, which says errors come in the Graph API answer, the `messages` webhook, or both);
 * `failedStatus()` builds that notification.
 */
export async function startFakeWhatsApp() {
  const messages: FakeWhatsAppMessage[] = [];
  /** The business account's templates, as Meta lists them: all approved in English to begin with. */
  const templates = Object.values(FAKE_WHATSAPP.templates).map((name, index) => ({
    name,
    status: "APPROVED",
    language: "en",
    id: `7${index}4562818812345`,
  }));
  /** "500": Meta answers an error; "down": the connection is dropped. */
  const state: { outage: "500" | "down" | null; requests: number } = { outage: null, requests: 0 };
  /** Numbers (as sent, 91 and ten digits) whose users stopped this business's marketing messages. */
  const stoppedMarketing = new Set<string>();
  /** Messages refused after being accepted, by id, with Meta's error code: the webhook tells of them. */
  const failed = new Map<string, number>();
  /** Every message request's body as it came, parsed, for a test to hold against the documented shape. */
  const received: unknown[] = [];

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => send(response, 500, graphError(String(error), 1)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function read(request: IncomingMessage, response: ServerResponse, pathname: string) {
    if (request.headers.authorization !== `Bearer ${FAKE_WHATSAPP.accessToken}`) {
      return send(
        response,
        401,
        graphError("Error validating access token: invalid token", 190, "OAuthException"),
      );
    }
    if (pathname === `/${FAKE_WHATSAPP.phoneNumberId}`) {
      return send(response, 200, {
        id: FAKE_WHATSAPP.phoneNumberId,
        display_phone_number: FAKE_WHATSAPP.displayPhoneNumber,
        verified_name: FAKE_WHATSAPP.verifiedName,
      });
    }
    if (pathname === `/${FAKE_WHATSAPP.businessAccountId}/message_templates`) {
      return send(response, 200, {
        data: templates,
        paging: { cursors: { before: "MAZDZD", after: "MjQZD" } },
      });
    }
    const id = pathname.slice(1).split("/")[0];
    send(
      response,
      400,
      graphError(
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
        100,
      ),
    );
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    state.requests++;
    const raw = await readBody(request);
    if (state.outage === "down") {
      request.socket.destroy();
      return;
    }
    if (state.outage === "500") {
      return send(
        response,
        500,
        graphError("An unexpected error has occurred. Please retry your request later.", 2),
      );
    }
    const pathname = new URL(request.url ?? "/", base).pathname;
    if (request.method === "GET") return read(request, response, pathname);
    const path = pathname.match(/^\/(\d+)\/messages$/);
    if (request.method !== "POST" || !path)
      return send(response, 404, graphError("Unknown path components", 2500));
    if (request.headers.authorization !== `Bearer ${FAKE_WHATSAPP.accessToken}`) {
      return send(
        response,
        401,
        graphError("Error validating access token: invalid token", 190, "OAuthException"),
      );
    }
    if (path[1] !== FAKE_WHATSAPP.phoneNumberId) {
      return send(
        response,
        400,
        graphError(`Unsupported post request. Object with ID '${path[1]}' does not exist`, 100),
      );
    }
    received.push(JSON.parse(raw));
    const body = JSON.parse(raw) as {
      messaging_product?: string;
      to?: string;
      type?: string;
      template?: { name?: string; language?: { code?: string }; components?: TemplateComponent[] };
    };
    if (body.messaging_product !== "whatsapp" || body.type !== "template" || !body.to || !body.template) {
      return send(response, 400, graphError("(#100) Invalid parameter", 100));
    }
    // Only the fields the Messages reference documents for a template message: anything else is refused, so a
    // field the shop sends that the documentation lacks fails the tests that send.
    const unknown =
      Object.keys(body).find((field) => !DOCUMENTED_MESSAGE_FIELDS.includes(field)) ??
      Object.keys(body.template).find((field) => !DOCUMENTED_TEMPLATE_FIELDS.includes(field)) ??
      (body.template.components ?? [])
        .flatMap((component) => [
          ...Object.keys(component).filter((field) => !DOCUMENTED_COMPONENT_FIELDS.includes(field)),
          ...(component.parameters ?? []).flatMap((parameter) =>
            Object.keys(parameter).filter((field) => !DOCUMENTED_PARAMETER_FIELDS.includes(field)),
          ),
        ])
        .at(0);
    if (unknown)
      return send(response, 400, graphError(`(#100) Param ${unknown} is not a valid parameter`, 100));
    if (!/^91[6-9]\d{9}$/.test(body.to))
      return send(response, 400, graphError("(#100) Invalid parameter", 100));
    const known = Object.values(FAKE_WHATSAPP.templates);
    if (!body.template.name || !known.includes(body.template.name)) {
      return send(
        response,
        404,
        graphError("(#132001) Template name does not exist in the translation", 132001),
      );
    }
    const components = body.template.components ?? [];
    const bodyParameters = components.find((each) => each.type === "body")?.parameters ?? [];
    if (bodyParameters.some((each) => each.type !== "text" || !each.text)) {
      return send(
        response,
        400,
        graphError("(#132000) Number of parameters does not match the expected number of params", 132000),
      );
    }
    const shape = TEMPLATE_SHAPES[body.template.name];
    const buttonAt = (index: number) =>
      components.find((each) => each.type === "button" && Number(each.index) === index);
    const mismatch =
      shape &&
      (bodyParameters.length !== shape.body ||
        components.some(
          (each) => each.type === "button" && shape.buttons[Number(each.index)] !== each.sub_type,
        ) ||
        shape.buttons.some(
          (kind, index) =>
            kind === "url" &&
            (buttonAt(index)?.parameters?.length !== 1 ||
              buttonAt(index)?.parameters?.[0]?.type !== "text" ||
              !buttonAt(index)?.parameters?.[0]?.text),
        ));
    if (mismatch) {
      return send(
        response,
        400,
        graphError("(#132000) Number of parameters does not match the expected number of params", 132000),
      );
    }
    if (bodyParameters.some((each) => /[\n\t]| {5,}/.test(each.text ?? ""))) {
      return send(
        response,
        400,
        graphError(
          "(#132018) There was an issue with the parameters in your template: param text cannot have new-line/tab characters or more than 4 consecutive spaces",
          132018,
        ),
      );
    }
    const buttonsOf = (kind: string, read: (parameter: { payload?: string; text?: string }) => string) =>
      components
        .filter((each) => each.type === "button" && each.sub_type === kind)
        .sort((a, b) => Number(a.index) - Number(b.index))
        .map((each) => read(each.parameters?.[0] ?? {}));
    const id = `wamid.${randomBytes(12).toString("base64url")}`;
    messages.push({
      id,
      to: body.to,
      template: body.template.name,
      language: body.template.language?.code ?? "",
      body: bodyParameters.map((each) => each.text ?? ""),
      buttons: buttonsOf("quick_reply", (parameter) => parameter.payload ?? ""),
      urlSuffixes: buttonsOf("url", (parameter) => parameter.text ?? ""),
    });
    if (shape?.category === "MARKETING" && stoppedMarketing.has(body.to)) failed.set(id, 131050);
    send(response, 200, {
      messaging_product: "whatsapp",
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id, message_status: "accepted" }],
    });
  }

  return {
    base,
    messages,
    templates,
    state,
    stoppedMarketing,
    failed,
    received,
    /** Waits until `count` messages have been accepted (the shop sends through its job queue). */
    async waitForMessages(count: number, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > until)
          throw new Error(`expected ${count} WhatsApp messages, got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A messages notification as Meta posts it to the webhook when a shopper taps a template's quick-reply
 * button, with its X-Hub-Signature-256 (signed with `secret`, the app's secret unless a test forges it).
 */
export function buttonReply(options: {
  messageId?: string;
  from: string;
  payload: string;
  text: string;
  /** Seconds since 1970, as WhatsApp writes it. */
  timestamp?: number;
  secret?: string;
}) {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: FAKE_WHATSAPP.phoneNumberId },
              contacts: [{ profile: { name: "Shopper" }, wa_id: options.from }],
              messages: [
                {
                  context: { from: "15550783881", id: `wamid.${randomBytes(8).toString("base64url")}` },
                  from: options.from,
                  id: options.messageId ?? `wamid.${randomBytes(12).toString("base64url")}`,
                  timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
                  type: "button",
                  button: { payload: options.payload, text: options.text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac("sha256", options.secret ?? FAKE_WHATSAPP.appSecret)
    .update(body)
    .digest("hex")}`;
  return { body, signature };
}

/**
 * A statuses notification as Meta posts it when a message it accepted could not be delivered: `failed` with
 * its error (code, title, message, error_data.details), signed as buttonReply's is.
 */
export function failedStatus(options: { messageId: string; recipient: string; code: number; title: string }) {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: FAKE_WHATSAPP.businessAccountId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: FAKE_WHATSAPP.phoneNumberId },
              statuses: [
                {
                  id: options.messageId,
                  status: "failed",
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: options.recipient,
                  errors: [
                    {
                      code: options.code,
                      title: options.title,
                      message: options.title,
                      error_data: { details: options.title },
                    },
                  ],
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac("sha256", FAKE_WHATSAPP.appSecret).update(body).digest("hex")}`;
  return { body, signature };
}

function graphError(message: string, code: number, type = "OAuthException") {
  return { error: { message, type, code, fbtrace_id: randomBytes(8).toString("base64url") } };
}
