import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../server/db/embedded.ts";
import { signUpViaHttp, type TestAccount } from "../accounts.ts";
import { TEST_ADDRESS } from "../orders.ts";
import { startDebianPostgres } from "./debian-postgres.ts";
import { type Answer, callHttp, type Instance, startInstance } from "./instances.ts";

const root = path.resolve(import.meta.dirname, "../..");
const RACERS = 30;
const RESTART_SHOPPERS = 6;

/**
 * The deployment recipe as written: Debian's PostgreSQL, two instances, and Debian's nginx running
 * deploy/nginx.conf (its ports, certificate and paths replaced by the test's own).
 */
describe("two instances behind nginx with deploy/nginx.conf", () => {
  let database: Awaited<ReturnType<typeof startDebianPostgres>>;
  let instances: Instance[] = [];
  let nginx: ChildProcess | undefined;
  let folder: string;
  let baseUrl: string;
  let instanceEnv: Record<string, string>;
  let db: pg.Client;

  beforeAll(async () => {
    // The certificate is the test's own, self-signed.
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    database = await startDebianPostgres();
    folder = await mkdtemp(path.join(tmpdir(), "shop-nginx-"));
    await chmod(folder, 0o777);
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-keyout",
        path.join(folder, "key.pem"),
        "-out",
        path.join(folder, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    const [httpPort, httpsPort, portA, portB] = await Promise.all([
      findFreePort(),
      findFreePort(),
      findFreePort(),
      findFreePort(),
    ]);
    baseUrl = `https://localhost:${httpsPort}`;
    const site = (await readFile(path.join(root, "deploy/nginx.conf"), "utf8"))
      .replaceAll("127.0.0.1:3001", `127.0.0.1:${portA}`)
      .replaceAll("127.0.0.1:3002", `127.0.0.1:${portB}`)
      .replaceAll("listen 80;", `listen 127.0.0.1:${httpPort};`)
      .replaceAll("listen [::]:80;", "")
      .replaceAll("listen 443 ssl http2;", `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replaceAll("listen [::]:443 ssl http2;", "")
      .replaceAll("shop.example.com", "localhost")
      .replaceAll("/etc/letsencrypt/live/localhost/fullchain.pem", path.join(folder, "cert.pem"))
      .replaceAll("/etc/letsencrypt/live/localhost/privkey.pem", path.join(folder, "key.pem"))
      .replaceAll("/srv/storefront/dist", path.join(root, "dist"));
    await writeFile(
      path.join(folder, "nginx.conf"),
      `pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
worker_processes 1;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  ${site}
}
`,
    );
    instanceEnv = {
      DATABASE_URL: database.url,
      PUBLIC_URL: baseUrl,
      TRUSTED_PROXIES: "127.0.0.1",
    };
    instances = await Promise.all([
      startInstance("a", instanceEnv, { port: portA }),
      startInstance("b", instanceEnv, { port: portB }),
    ]);
    nginx = spawn(
      "/usr/sbin/nginx",
      ["-c", path.join(folder, "nginx.conf"), "-p", folder, "-g", "daemon off;"],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    for (let tries = 0; ; tries++) {
      const answer = await callHttp(baseUrl, "GET", "/api/ready");
      if (answer.status === 200) break;
      if (tries > 100) throw new Error(`nginx did not come up: ${JSON.stringify(answer)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    nginx?.kill("SIGQUIT");
    for (const instance of instances) await instance.stop();
    await database?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  async function shopperWithCart(email: string) {
    const account = await signUpViaHttp(baseUrl, email);
    const saved = (await callHttp(baseUrl, "POST", "/api/addresses", {
      cookie: account.cookie,
      body: TEST_ADDRESS,
    })) as { status: number; body: { address: { id: string } } };
    expect(saved.status).toBe(201);
    return { account, addressId: saved.body.address.id };
  }

  const addToCart = (account: TestAccount, slug: string) =>
    callHttp(baseUrl, "POST", "/api/cart/items", {
      cookie: account.cookie,
      body: { id: slug, kind: "product" },
    });

  const order = (account: TestAccount, addressId: string) =>
    callHttp(baseUrl, "POST", "/api/orders", {
      cookie: account.cookie,
      body: { addressId, paymentMethod: "cod" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });

  it("answers over HTTP/2 with TLS and passes on the request id", async () => {
    const version = execFileSync(
      "curl",
      ["-sk", "--http2", "-o", "/dev/null", "-w", "%{http_version}", `${baseUrl}/api/health`],
      {
        encoding: "utf8",
      },
    );
    expect(version).toBe("2");
    const response = await fetch(`${baseUrl}/api/health`);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f]{32}$/); // nginx's $request_id
  });

  it("sells the last jar once: 30 shoppers at the same moment through two instances", async () => {
    const { rows } = await db.query<{ slug: string }>("select slug from products order by slug limit 1");
    const slug = rows[0]?.slug ?? "";
    await db.query("update products set stock = 100 where slug = $1", [slug]);
    const shoppers = [];
    for (let index = 0; index < RACERS; index++) {
      const shopper = await shopperWithCart(`racer-${index}@example.com`);
      expect((await addToCart(shopper.account, slug)).status).toBe(200);
      shoppers.push(shopper);
    }
    await db.query("update products set stock = 1 where slug = $1", [slug]);
    const answers = await Promise.all(shoppers.map(({ account, addressId }) => order(account, addressId)));
    const statuses = answers.map((answer) => answer.status);
    const stock = await db.query<{ stock: number }>("select stock from products where slug = $1", [slug]);
    console.log(
      `[nginx] stock-1 race: ${statuses.filter((s) => s === 201).length} x 201, ${statuses.filter((s) => s === 409).length} x 409`,
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(RACERS - 1);
    expect(stock.rows[0]?.stock).toBe(0);
  });

  it("loses no order through a rolling restart of both instances", async () => {
    const { rows } = await db.query<{ slug: string }>("select slug from products order by slug desc limit 1");
    const slug = rows[0]?.slug ?? "";
    await db.query("update products set stock = 100000 where slug = $1", [slug]);
    const shoppers = [];
    for (let index = 0; index < RESTART_SHOPPERS; index++) {
      shoppers.push(await shopperWithCart(`rolling-${index}@example.com`));
    }
    const answers: Answer[] = [];
    let running = true;
    const shopping = Promise.all(
      shoppers.map(async ({ account, addressId }) => {
        while (running) {
          const added = await addToCart(account, slug);
          answers.push(added);
          if (added.status !== 200) continue;
          answers.push(await order(account, addressId));
        }
      }),
    );

    const restarted: Instance[] = [];
    for (const instance of instances) {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const exit = await instance.stop();
      expect(exit).toEqual({ code: 0, signal: null });
      restarted.push(await startInstance(`${instance.name}-new`, instanceEnv, { port: instance.port }));
    }
    instances = restarted;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    running = false;
    await shopping;

    const failed = answers.filter((answer) => answer.status < 200 || answer.status >= 300);
    const orders = answers.filter((answer) => answer.status === 201).length;
    console.log(`[nginx] rolling restart: ${orders} orders placed, ${failed.length} requests failed`);
    if (failed.length > 0) {
      const log = await readFile(path.join(folder, "error.log"), "utf8").catch(() => "");
      console.log(`[nginx] error.log:\n${log.split("\n").slice(-15).join("\n")}`);
    }
    expect(failed.slice(0, 5)).toEqual([]);
    expect(orders).toBeGreaterThan(0);
  });
});
