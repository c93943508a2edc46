import { afterAll, describe, expect, it } from "vitest";
import { createTestApp } from "../tests/database.ts";
import { createApp } from "./app.ts";
import { createLifecycle } from "./lifecycle.ts";

describe("readiness while shutting down", () => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  afterAll(() => test?.close());

  it("turns /api/ready to 503 in the error shape once draining, and closes each answer's connection", async () => {
    test = await createTestApp();
    let draining = false;
    const app = createApp(test.deps, {
      lifecycle: {
        get draining() {
          return draining;
        },
      },
    });
    expect((await app.request("/api/ready")).status).toBe(200);
    draining = true;
    const response = await app.request("/api/ready");
    expect(response.status).toBe(503);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({
      error: { code: "shutting_down", message: "This instance is shutting down." },
    });
  });

  it("stops registered background work last registered first", async () => {
    const lifecycle = createLifecycle();
    const stopped: string[] = [];
    lifecycle.onStop("first", () => {
      stopped.push("first");
    });
    lifecycle.onStop("second", async () => {
      stopped.push("second");
    });
    lifecycle.onStop("failing", () => {
      throw new Error("cannot stop");
    });
    const server = { close: (done: () => void) => done() } as never;
    await lifecycle.shutdown({ server, graceMs: 100, finally: [() => void stopped.push("pool")] });
    expect(stopped).toEqual(["second", "first", "pool"]);
    expect(lifecycle.draining).toBe(true);
  });
});
