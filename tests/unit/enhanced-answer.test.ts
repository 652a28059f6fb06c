import { describe, expect, it } from "vitest";
import { answerEnhanced } from "~/lib/screens/enhanced-answer.server";
import { TOAST_COOKIE } from "~/lib/screens/toast.server";

// The `enhanced` answer (app/lib/screens/enhanced-answer.server.ts): a plain form is redirected, a post
// with enhanced=1 (a fetcher, a hydrated form) gets data.

const plain = () => {
  const form = new FormData();
  form.set("intent", "delete");
  return form;
};
const enhanced = () => {
  const form = plain();
  form.set("enhanced", "1");
  return form;
};

/** What react-router's data() holds. */
type DataAnswer = { type: string; data: unknown; init: ResponseInit | null | undefined };
const asData = (answer: unknown) => {
  expect(answer).not.toBeInstanceOf(Response);
  expect((answer as DataAnswer).type).toBe("DataWithResponseInit");
  return answer as DataAnswer;
};
const asRedirect = (answer: unknown) => {
  expect(answer).toBeInstanceOf(Response);
  return answer as Response;
};
const toastCookie = (headers: HeadersInit | undefined) =>
  new Headers(headers).getSetCookie().find((cookie) => cookie.startsWith(`${TOAST_COOKIE}=`));

describe("answerEnhanced", () => {
  it("redirects a plain form: its Location, 302, no body", async () => {
    const answer = asRedirect(await answerEnhanced(plain(), { data: { ok: true }, redirectTo: "/dashboard?page=2" }));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/dashboard?page=2");
    expect(await answer.text()).toBe("");
    expect(toastCookie(answer.headers)).toBeUndefined();
  });

  it("a plain form's redirect keeps the given status and headers, and never carries the data's", async () => {
    const answer = asRedirect(
      await answerEnhanced(plain(), {
        data: { ok: false },
        init: { status: 404, headers: { "X-Data": "1" } },
        redirectTo: "/projects",
        redirectInit: { status: 303, headers: { "Set-Cookie": "just-changed=1; Path=/" } },
      }),
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/projects");
    expect(answer.headers.get("Set-Cookie")).toBe("just-changed=1; Path=/");
    expect(answer.headers.get("X-Data")).toBeNull();
  });

  it("answers enhanced=1 with the data and its status (200 unless given)", async () => {
    const ok = asData(await answerEnhanced(enhanced(), { data: { ok: true, id: "a" }, redirectTo: "/library" }));
    expect(ok.data).toEqual({ ok: true, id: "a" });
    expect(ok.init?.status ?? 200).toBe(200);
    const refused = asData(
      await answerEnhanced(enhanced(), {
        data: { ok: false, message: "❌ Delete failed" },
        init: { status: 404, headers: { "X-Data": "1" } },
        redirectTo: "/library",
        redirectInit: { headers: { "X-Redirect": "1" } },
      }),
    );
    expect(refused.data).toEqual({ ok: false, message: "❌ Delete failed" });
    expect(refused.init?.status).toBe(404);
    expect(new Headers(refused.init?.headers).get("X-Data")).toBe("1");
    expect(new Headers(refused.init?.headers).get("X-Redirect")).toBeNull();
  });

  it("only enhanced=1 counts as enhanced", async () => {
    const other = plain();
    other.set("enhanced", "true");
    asRedirect(await answerEnhanced(other, { data: {}, redirectTo: "/" }));
  });

  it("a toast rides the plain form's redirect as the flash cookie, success or error", async () => {
    for (const type of ["success", "error"] as const) {
      const answer = asRedirect(
        await answerEnhanced(plain(), { data: {}, redirectTo: "/account", toast: { type, message: "Done" } }),
      );
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/account");
      expect(toastCookie(answer.headers)).toBeDefined();
    }
  });

  it("a toast rides the data only when asked (withData), keeping the data's status", async () => {
    const without = asData(
      await answerEnhanced(enhanced(), {
        data: { ok: true },
        redirectTo: "/",
        toast: { type: "success", message: "Done" },
      }),
    );
    expect(toastCookie(without.init?.headers)).toBeUndefined();
    const withToast = asData(
      await answerEnhanced(enhanced(), {
        data: { ok: false },
        init: { status: 409 },
        redirectTo: "/",
        toast: { type: "error", message: "Refused", withData: true },
      }),
    );
    expect(withToast.data).toEqual({ ok: false });
    expect(withToast.init?.status).toBe(409);
    expect(toastCookie(withToast.init?.headers)).toBeDefined();
  });
});
