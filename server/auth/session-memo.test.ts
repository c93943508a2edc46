import { describe, expect, it } from "vitest";
import { createSessionMemo } from "./session-memo.ts";

const NAMES = { token: "better-auth.session_token", data: "better-auth.session_data" };
const HOUR = 3600_000;

/** A compact copy as Better Auth writes it (its signature is Better Auth's to check, not the memo's). */
function copy({
  label = "7",
  copyExpiresAt = Date.now() + 60_000,
  sessionExpiresAt = Date.now() + HOUR,
} = {}) {
  const payload = {
    session: {
      session: { expiresAt: new Date(sessionExpiresAt).toISOString() },
      user: { id: "user-1", email: "asha@example.in", name: "Asha", role: "staff" },
      version: label,
    },
    expiresAt: copyExpiresAt,
    signature: "checked-by-better-auth",
  };
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

function memoHearing(label: { current: string }) {
  return createSessionMemo({ sessionVersion: () => label.current }, () => NAMES);
}

describe("the memo of accepted session copies", () => {
  it("knows a remembered copy while its label is the one heard, and not once it changes", () => {
    const heard = { current: "7" };
    const memo = memoHearing(heard);
    const cookies = memo.cookiesOf(`theme=dark; ${NAMES.token}=abc.sig; ${NAMES.data}=${copy()}`);
    expect(cookies).not.toBeNull();
    if (!cookies) return;
    expect(memo.known(cookies)).toBeUndefined();
    expect(memo.remember(cookies)?.user).toEqual({
      id: "user-1",
      email: "asha@example.in",
      name: "Asha",
      role: "staff",
    });
    expect(memo.known(cookies)?.user.id).toBe("user-1");
    // Another copy under the same token is not this one.
    expect(memo.known({ token: cookies.token, data: copy({ label: "8" }) })).toBeUndefined();
    heard.current = "8";
    expect(memo.known(cookies)).toBeUndefined();
    heard.current = "7";
    // Forgotten when it failed: Better Auth must accept it again.
    expect(memo.known(cookies)).toBeUndefined();
  });

  it("does not know a copy that ran out, or whose session did", () => {
    const memo = memoHearing({ current: "7" });
    for (const data of [
      copy({ copyExpiresAt: Date.now() - 1 }),
      copy({ sessionExpiresAt: Date.now() - 1 }),
    ]) {
      const cookies = { token: `t-${data.length}-${Math.random()}`, data };
      memo.remember(cookies);
      expect(memo.known(cookies)).toBeUndefined();
    }
  });

  it("leaves to Better Auth a header it could read differently: a name twice, or a copy in chunks", () => {
    const memo = memoHearing({ current: "7" });
    const data = copy();
    expect(memo.cookiesOf(`${NAMES.token}=a; ${NAMES.data}=${data}; ${NAMES.data}=${data}`)).toBeNull();
    expect(memo.cookiesOf(`${NAMES.token}=a; ${NAMES.token}=b; ${NAMES.data}=${data}`)).toBeNull();
    expect(memo.cookiesOf(`${NAMES.token}=a; ${NAMES.data}.0=${data}`)).toBeNull();
    expect(memo.cookiesOf(`${NAMES.token}=a`)).toBeNull();
    expect(memo.hasToken(`${NAMES.token}=a; ${NAMES.token}=b`)).toBe(true);
    expect(memo.hasToken(`theme=dark; ${NAMES.data}=${data}`)).toBe(false);
    expect(memo.hasToken(undefined)).toBe(false);
  });

  it("remembers nothing from a value that is not a compact copy", () => {
    const memo = memoHearing({ current: "7" });
    expect(memo.remember({ token: "a", data: "not-base64-json" })).toBeUndefined();
    expect(
      memo.remember({ token: "a", data: Buffer.from('{"session":{}}').toString("base64url") }),
    ).toBeUndefined();
  });

  it("remembers the copy Better Auth set under the token the browser will send with it", () => {
    const memo = memoHearing({ current: "7" });
    const data = copy();
    const attributes = "Max-Age=60; Path=/; HttpOnly; SameSite=Lax";
    expect(
      memo.rememberIssued(`theme=dark; ${NAMES.token}=abc.sig`, [`${NAMES.data}=${data}; ${attributes}`])
        ?.user.id,
    ).toBe("user-1");
    expect(memo.known({ token: "abc.sig", data })?.user.email).toBe("asha@example.in");
    // A token set in the same answer is the one that comes back.
    const other = copy({ label: "7", copyExpiresAt: Date.now() + 30_000 });
    memo.rememberIssued(`${NAMES.token}=old.sig`, [
      `${NAMES.token}=new.sig; Max-Age=604800; Path=/`,
      `${NAMES.data}=; Max-Age=0; Path=/`,
      `${NAMES.data}=${other}; ${attributes}`,
    ]);
    expect(memo.known({ token: "new.sig", data: other })).toBeDefined();
    expect(memo.known({ token: "old.sig", data: other })).toBeUndefined();
  });

  it("remembers nothing from a removal, a copy in chunks or a header it could read differently", () => {
    const memo = memoHearing({ current: "7" });
    const data = copy();
    const header = `${NAMES.token}=abc.sig`;
    expect(
      memo.rememberIssued(header, [`${NAMES.data}=${data}`, `${NAMES.data}=; Max-Age=0`]),
    ).toBeUndefined();
    expect(
      memo.rememberIssued(header, [`${NAMES.data}=${data}`, `${NAMES.token}=; Max-Age=0`]),
    ).toBeUndefined();
    expect(memo.rememberIssued(header, [`${NAMES.data}.0=${data}`, `${NAMES.data}.1=x`])).toBeUndefined();
    expect(memo.rememberIssued(`${header}; ${NAMES.token}=b`, [`${NAMES.data}=${data}`])).toBeUndefined();
    expect(memo.rememberIssued(undefined, [`${NAMES.data}=${data}`])).toBeUndefined();
    expect(memo.known({ token: "abc.sig", data })).toBeUndefined();
  });

  it("hands what it remembers to the shop's other workers, who check it with what they have heard", () => {
    // Two workers, each its own memo, joined as the primary joins them (server/cluster-sessions.ts).
    const heardBySecond = { current: "7" };
    const workers: ReturnType<typeof createSessionMemo>[] = [];
    const handedOn: string[] = [];
    const join = (index: number, label: { current: string }) =>
      createSessionMemo(
        { sessionVersion: () => label.current },
        () => NAMES,
        (cookies) => {
          handedOn.push(cookies.token);
          workers[1 - index]?.rememberShared(cookies);
        },
      );
    workers.push(join(0, { current: "7" }), join(1, heardBySecond));
    const [first, second] = workers;
    if (!first || !second) return;
    const accepted = { token: "abc.sig", data: copy() };
    first.remember(accepted);
    expect(second.known(accepted)?.user.id).toBe("user-1");
    const data = copy({ copyExpiresAt: Date.now() + 30_000 });
    first.rememberIssued(`${NAMES.token}=abc.sig`, [`${NAMES.data}=${data}; Max-Age=30; Path=/`]);
    expect(second.known({ token: "abc.sig", data })).toBeDefined();
    // What came from a sibling is not handed back, and nothing is handed on that was not remembered.
    expect(handedOn).toEqual(["abc.sig", "abc.sig"]);
    first.remember({ token: "bad.sig", data: "not-a-copy" });
    expect(handedOn).toHaveLength(2);
    // A worker that has heard the session was revoked does not know the copy, wherever it was accepted.
    heardBySecond.current = "8";
    expect(second.known({ token: "abc.sig", data })).toBeUndefined();
  });
});
