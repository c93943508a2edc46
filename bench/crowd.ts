/**
 * Client side of bench/flash-sale.bench.ts, in a process of its own so it never shares an event loop with the
 * shop it measures: `node --import tsx bench/crowd.ts plan.json`.
 * - "streams": opens `count` signed-in tabs following their carts (GET /api/cart/events, cookies taken in
 *   turn), prints {"open":n,"failed":n} once each has its first message or failed, then holds them until its
 *   stdin closes and prints {"events":n,"dropped":n}.
 * - "burst": sends every order at once, each on a connection of its own, and prints the statuses and times, with
 *   the CPU this process spent sending them and reading the answers.
 */

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";

type Plan =
  | { kind: "streams"; url: string; cookies: string[]; count: number }
  | {
      kind: "burst";
      url: string;
      origin: string;
      orders: { cookie: string; addressId: string }[];
      /** When to send (ms since the epoch), so the caller can measure from the first order, not this start. */
      startAt?: number;
    }
  | { kind: "sequence"; url: string; origin: string; orders: { cookie: string; addressId: string }[] };

// The plan's cookies are too long for one argument: it comes as a file.
const plan = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as Plan;
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/** One order placed as the shop's checkout sends it; its status (0 for no answer) and how long it took. */
function placeOrder(
  to: { url: string; origin: string },
  agent: http.Agent,
  cookie: string,
  addressId: string,
) {
  return new Promise<{ status: number; ms: number }>((resolve) => {
    const body = JSON.stringify({ addressId, paymentMethod: "cod" });
    const sent = performance.now();
    const request = http.request(
      `${to.url}/api/orders`,
      {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          Origin: to.origin,
          Cookie: cookie,
          "Idempotency-Key": randomUUID(),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - sent }));
      },
    );
    request.on("error", () => resolve({ status: 0, ms: performance.now() - sent }));
    request.end(body);
  });
}

/**
 * The burst's order, as placeOrder sends it but written straight to a socket of its own and read until the shop
 * closes it. The crowd shares the shop's two cores, and its CPU is, on the real day, in the shoppers' phones:
 * node's HTTP client (an agent's socket, a parser, a request and a response object per order) spent 0.17-0.34 s
 * of CPU on the 400 orders, this 0.11-0.14 s.
 */
function placeOrderOnNewConnection(to: { url: string; origin: string }, cookie: string, addressId: string) {
  const { hostname, port } = new URL(to.url);
  const body = JSON.stringify({ addressId, paymentMethod: "cod" });
  const request =
    `POST /api/orders HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nOrigin: ${to.origin}\r\nCookie: ${cookie}\r\n` +
    `Idempotency-Key: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`;
  return new Promise<{ status: number; ms: number }>((resolve) => {
    const sent = performance.now();
    let head = "";
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      if (head.length < 12) head += chunk;
    });
    socket.on("close", () => {
      // "HTTP/1.1 201 Created": the status is the second word of the first line; no answer is 0.
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      resolve({ status: status ? Number(status) : 0, ms: performance.now() - sent });
    });
    socket.on("error", () => socket.destroy());
  });
}

if (plan.kind === "streams") {
  let open = 0;
  let failed = 0;
  let events = 0;
  let dropped = 0;
  let reported = false;
  const requests: http.ClientRequest[] = [];
  const settle = () => {
    if (!reported && open + failed === plan.count) {
      reported = true;
      process.stdout.write(`${JSON.stringify({ open, failed })}\n`);
    }
  };
  const openOne = (index: number) =>
    new Promise<void>((resolve) => {
      const request = http.get(
        `${plan.url}/api/cart/events`,
        {
          agent,
          headers: { Cookie: plan.cookies[index % plan.cookies.length], Accept: "text/event-stream" },
        },
        (response) => {
          let first = true;
          if (response.statusCode !== 200) {
            failed++;
            response.resume();
            settle();
            return resolve();
          }
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            const messages = chunk.split("\n\n").filter((part) => part.includes("event:")).length;
            events += messages;
            if (first && messages > 0) {
              first = false;
              open++;
              settle();
              resolve();
            }
          });
          response.on("close", () => {
            if (!reported) return;
            dropped++;
          });
        },
      );
      request.on("error", () => {
        failed++;
        settle();
        resolve();
      });
      requests.push(request);
    });
  // A few hundred at a time, as tabs open over a minute rather than in one instant.
  for (let index = 0; index < plan.count; index += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, plan.count - index) }, (_, offset) => openOne(index + offset)),
    );
  }
  process.stdin.resume();
  process.stdin.on("end", () => {
    process.stdout.write(`${JSON.stringify({ events, dropped })}\n`);
    for (const request of requests) request.destroy();
    process.exit(0);
  });
} else if (plan.kind === "sequence") {
  // One order at a time on one kept-alive connection: each answer's status is printed, and the next order waits
  // for a line on stdin, so the shop can read its CPU between two answers with nothing else in flight.
  const kept = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const lines = (async function* () {
    let buffered = "";
    for await (const chunk of process.stdin) {
      buffered += chunk;
      while (buffered.includes("\n")) {
        buffered = buffered.slice(buffered.indexOf("\n") + 1);
        yield;
      }
    }
  })();
  for (const { cookie, addressId } of plan.orders) {
    const { status } = await placeOrder(plan, kept, cookie, addressId);
    process.stdout.write(`${status}\n`);
    await lines.next();
  }
  kept.destroy();
  process.exit(0);
} else {
  const { startAt } = plan;
  if (startAt) await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const results = await Promise.all(
    plan.orders.map(({ cookie, addressId }) => placeOrderOnNewConnection(plan, cookie, addressId)),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const times = results.map((result) => result.ms).sort((a, b) => a - b);
  const at = (fraction: number) =>
    Math.round(times[Math.min(times.length - 1, Math.floor(times.length * fraction))] ?? 0);
  const statuses: Record<string, number> = {};
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  process.stdout.write(`${JSON.stringify({ seconds, statuses, p50: at(0.5), p99: at(0.99), cpuMs })}\n`);
}
