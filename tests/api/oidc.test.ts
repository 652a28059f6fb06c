import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchServer } from "../harness/launch.mjs";
import { startOidcProvider, startSsoApp, SSO_NAME, type OidcProvider, type SsoApp } from "../support/oidc";
import { runAdmin } from "../support/admin";
import { startTestServer } from "../support/server";
import { baseUrl, PASSWORD, uniqueEmail } from "../support/api";
import { apiLogin } from "../support/client.mjs";

/**
 * Decision 0048, single sign-on: the whole authorization code flow against a real OpenID provider
 * (oidc-provider, tests/support/oidc-provider.mjs, in a process of its own on a loopback port), as a
 * browser without JavaScript would do it: following redirects, with a cookie jar, filling the
 * provider's sign-in form.
 */

/** A browser's cookies and redirects, enough for the code flow (cookies kept per host and port). */
class Browser {
  private jar = new Map<string, Map<string, string>>();

  cookieHeader(url: string): string {
    return [...(this.jar.get(new URL(url).host) ?? new Map()).entries()]
      .map(([name, value]) => `${name}=${value}`)
      .join("; ");
  }

  cookie(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).host)?.get(name);
  }

  /** One request, no redirect followed; its Set-Cookie headers kept. */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { Cookie: this.cookieHeader(url) };
    if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      headers.Origin = new URL(url).origin;
    }
    const response = await fetch(url, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
      redirect: "manual",
    });
    const host = new URL(url).host;
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    this.jar.set(host, cookies);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some(
        (attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=Thu, 01 Jan 1970/i.test(attribute),
      );
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects until `stop(url)` says the next URL is for the caller, or an answer is not a redirect. */
  async follow(
    response: Response,
    from: string,
    stop: (url: URL) => boolean = () => false,
  ): Promise<{ response: Response; url: string }> {
    let url = from;
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      const next = new URL(response.headers.get("Location")!, url);
      if (stop(next)) return { response, url };
      url = next.href;
      response = await this.request(url);
    }
    return { response, url };
  }
}

/** Tests that start a server of their own (a few seconds each, more than a minute on a loaded machine). */
const SERVER_START_TIMEOUT_MS = 240_000;

let provider: OidcProvider;
let app: SsoApp;
let appUrl: string;

beforeAll(async () => {
  provider = await startOidcProvider();
  app = await startSsoApp(provider);
  appUrl = app.server.url;
});

afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

const isCallback = (url: URL) => url.pathname === "/auth/oidc/callback";

/** Starts at the Login screen's link, signs in at the provider as `email`; resolves the app's callback URL (not yet opened). */
async function throughProvider(
  browser: Browser,
  email: string,
  start = "/auth/oidc",
  button: "login" | "abort" = "login",
): Promise<string> {
  const started = await browser.request(appUrl + start);
  expect(started.status).toBe(302);
  const { response: page, url: pageUrl } = await browser.follow(started, appUrl + start);
  expect(page.status, "the provider's sign-in page").toBe(200);
  const html = await page.text();
  const action = new RegExp(`action="(/interaction/[^"]+/${button})"`).exec(html)?.[1];
  expect(action).toBeTruthy();
  const submitted = await browser.request(new URL(action!, pageUrl).href, {
    form: button === "login" ? { email } : {},
  });
  const { response } = await browser.follow(submitted, new URL(action!, pageUrl).href, isCallback);
  const callback = new URL(response.headers.get("Location")!, pageUrl);
  expect(isCallback(callback), `the provider sends the browser back to the app: ${callback.href}`).toBe(true);
  return callback.href;
}

/** Opens the callback: where the app sends the browser, and what the page there says. */
async function backAtTheApp(browser: Browser, callback: string) {
  const answer = await browser.request(callback);
  expect(answer.status, "the callback redirects, never a 500").toBe(302);
  const location = answer.headers.get("Location")!;
  return { answer, location };
}

/** The flash message the Login screen shows without JavaScript. */
async function loginScreenMessage(browser: Browser, location: string): Promise<string> {
  const page = await browser.request(new URL(location, appUrl).href);
  expect(page.status).toBe(200);
  const html = await page.text();
  return (
    /<p class="message message-error"[^>]*>([^<]*)</
      .exec(html)?.[1]
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"') ?? ""
  );
}

async function me(browser: Browser) {
  const response = await browser.request(appUrl + "/api/auth/me");
  return {
    status: response.status,
    body: response.status === 200 ? ((await response.json()) as { id: string; email: string }) : null,
  };
}

describe("single sign-on with OpenID Connect", () => {
  it("the Login screen links to it without JavaScript, keeping where the person was going", async () => {
    const html = await (await fetch(appUrl + "/login?redirectTo=/projects")).text();
    expect(html).toMatch(
      new RegExp(`<a class="button sso-link" href="/auth/oidc\\?redirectTo=%2Fprojects">Sign in with ${SSO_NAME}</a>`),
    );
    // the form in docs/screens.md is there, unchanged.
    expect(html).toContain('aria-label="Login"');
    expect(html).toContain('name="password"');
  });

  it("a new verified email gets an account and the session cookie, and lands on /dashboard; the next sign-in is the same account", async () => {
    const email = uniqueEmail("sso-new");
    const browser = new Browser();
    const { answer, location } = await backAtTheApp(browser, await throughProvider(browser, email));
    expect(location).toBe("/dashboard");
    expect(
      answer.headers.getSetCookie().some((line) => line.startsWith("__Host-session=") && /HttpOnly/.test(line)),
    ).toBe(true);
    const first = await me(browser);
    expect(first).toMatchObject({ status: 200, body: { email } });
    const dashboard = await browser.request(appUrl + "/dashboard");
    expect(dashboard.status).toBe(200);

    const again = new Browser();
    expect((await backAtTheApp(again, await throughProvider(again, email))).location).toBe("/dashboard");
    expect((await me(again)).body?.id).toBe(first.body?.id);
  });

  it("an existing password account is matched by its verified email (case aside), and its password still works", async () => {
    const email = uniqueEmail("sso-known");
    const registered = await fetch(appUrl + "/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(registered.status).toBe(201);
    const { id } = (await registered.json()) as { id: string };
    const browser = new Browser();
    await backAtTheApp(browser, await throughProvider(browser, email.toUpperCase()));
    expect((await me(browser)).body).toMatchObject({ id, email });
    const login = await apiLogin(appUrl, email);
    expect(login.status).toBe(200);
  });

  it("uses PKCE (S256), state and nonce; their secrets live only in an encrypted, HttpOnly, SameSite=Lax __Host- cookie", async () => {
    const browser = new Browser();
    const started = await browser.request(appUrl + "/auth/oidc?redirectTo=/projects");
    expect(started.status).toBe(302);
    const authorize = new URL(started.headers.get("Location")!);
    expect(authorize.origin).toBe(provider.issuer);
    const params = authorize.searchParams;
    expect(
      Object.fromEntries(
        ["response_type", "scope", "code_challenge_method", "redirect_uri"].map((name) => [name, params.get(name)]),
      ),
    ).toEqual({
      response_type: "code",
      scope: "openid email profile",
      code_challenge_method: "S256",
      redirect_uri: `${appUrl}/auth/oidc/callback`,
    });
    for (const name of ["code_challenge", "state", "nonce"]) expect(params.get(name)).toMatch(/^[\w-]{43,}$/);
    const setCookie = started.headers.getSetCookie().find((line) => line.startsWith("__Host-oidc="))!;
    expect(setCookie).toMatch(/; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    // The cookie is sealed: neither the state nor anything readable is in it, however it is decoded.
    const value = decodeURIComponent(setCookie.split(";")[0].slice("__Host-oidc=".length));
    const decoded = Buffer.from(value, "base64").toString("utf8");
    for (const text of [value, decoded]) {
      expect(text).not.toContain(params.get("state")!);
      expect(text).not.toContain("projects");
    }
    // Nothing of it reaches the page's HTML either: the Login screen holds only the link.
    expect(await (await browser.request(appUrl + "/login")).text()).not.toContain(params.get("state")!);
  });

  it("returns to a same-origin redirectTo kept in the flow, never to another site", async () => {
    const browser = new Browser();
    const kept = await backAtTheApp(
      browser,
      await throughProvider(browser, uniqueEmail("sso-to"), "/auth/oidc?redirectTo=%2Fprojects%3Fpage%3D2"),
    );
    expect(kept.location).toBe("/projects?page=2");
    const other = new Browser();
    const refused = await backAtTheApp(
      other,
      await throughProvider(other, uniqueEmail("sso-evil"), "/auth/oidc?redirectTo=//evil.example/x"),
    );
    expect(refused.location).toBe("/dashboard");
  });

  it("a refused state (the answer belongs to another browser's sign-in) goes back to /login with a message, nobody signed in", async () => {
    const victim = new Browser();
    await victim.request(appUrl + "/auth/oidc");
    const attacker = new Browser();
    const attackersCallback = await throughProvider(attacker, uniqueEmail("sso-attacker"));
    // The attacker's own answer, opened in the victim's browser (login CSRF), is refused.
    const { answer, location } = await backAtTheApp(victim, attackersCallback);
    expect(location).toBe("/login");
    expect(answer.headers.getSetCookie().some((line) => line.startsWith("__Host-session="))).toBe(false);
    expect(await loginScreenMessage(victim, location)).toBe(
      `That sign-in with ${SSO_NAME} was not started here, or a newer one replaced it. Please try again.`,
    );
    expect((await me(victim)).status).toBe(401);
    // The flow cookie is spent: the answer cannot be tried again.
    expect(victim.cookie(appUrl, "__Host-oidc")).toBeUndefined();
  });

  it("an answer without the flow's cookie (expired, another browser) and one without a code go back to /login with a message", async () => {
    const browser = new Browser();
    const callback = await throughProvider(browser, uniqueEmail("sso-nocookie"));
    const stranger = new Browser();
    const lost = await backAtTheApp(stranger, callback);
    expect(lost.location).toBe("/login");
    expect(await loginScreenMessage(stranger, lost.location)).toBe(
      `That sign-in with ${SSO_NAME} expired or was started in another browser. Please try again.`,
    );

    const started = await browser.request(appUrl + "/auth/oidc");
    const state = new URL(started.headers.get("Location")!).searchParams.get("state")!;
    const noCode = await backAtTheApp(browser, `${appUrl}/auth/oidc/callback?state=${state}`);
    expect(noCode.location).toBe("/login");
    expect(await loginScreenMessage(browser, noCode.location)).toBe(
      `${SSO_NAME} answered without a sign-in code. Please try again.`,
    );
    expect((await me(browser)).status).toBe(401);
  });

  it("a code that is not the provider's (or already used) is refused at the token endpoint: /login with a message", async () => {
    const browser = new Browser();
    const callback = new URL(await throughProvider(browser, uniqueEmail("sso-forged")));
    callback.searchParams.set("code", "forged-code");
    const { location } = await backAtTheApp(browser, callback.href);
    expect(location).toBe("/login");
    expect(await loginScreenMessage(browser, location)).toBe(`Sign-in with ${SSO_NAME} failed. Please try again.`);
    expect((await me(browser)).status).toBe(401);
  });

  it("the provider's error=access_denied (Cancel at the provider) goes back to /login saying so", async () => {
    const browser = new Browser();
    const callback = await throughProvider(browser, "", "/auth/oidc?redirectTo=/projects", "abort");
    expect(new URL(callback).searchParams.get("error")).toBe("access_denied");
    const { location } = await backAtTheApp(browser, callback);
    expect(location).toBe("/login?redirectTo=%2Fprojects");
    expect(await loginScreenMessage(browser, location)).toBe(`Sign-in with ${SSO_NAME} was cancelled.`);
  });

  it("an unverified email is refused with a message, and no account is created", async () => {
    const email = uniqueEmail("unverified-sso");
    const browser = new Browser();
    const { location } = await backAtTheApp(browser, await throughProvider(browser, email));
    expect(location).toBe("/login");
    expect(await loginScreenMessage(browser, location)).toBe(
      `${SSO_NAME} has not verified your email address ${email}. Verify it there, then sign in again.`,
    );
    expect((await me(browser)).status).toBe(401);
    // The address is still free: nothing was created for it.
    const registered = await fetch(appUrl + "/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(registered.status).toBe(201);
  });
});

describe("single sign-on when registration is closed", () => {
  it(
    "an unknown email gets no account and a clear message; a known one still signs in",
    async () => {
      // The account exists from before the studio closed registration: made by SSO while it was open.
      const known = uniqueEmail("sso-member");
      const stranger = uniqueEmail("sso-stranger");
      const member = new Browser();
      await backAtTheApp(member, await throughProvider(member, known));
      const memberId = (await me(member)).body?.id;
      expect(memberId).toBeTruthy();
      const dataDir = app.server.dataDir;
      await app.stop();
      app = await startSsoApp(provider, { DATA_DIR: dataDir, REGISTRATION: "closed" });
      appUrl = app.server.url;

      const refused = new Browser();
      const { answer, location } = await backAtTheApp(refused, await throughProvider(refused, stranger));
      expect(location).toBe("/login");
      expect(answer.headers.getSetCookie().some((line) => line.startsWith("__Host-session="))).toBe(false);
      expect(await loginScreenMessage(refused, location)).toBe(
        `No account uses ${stranger}, and registration on this studio is closed.`,
      );
      expect((await me(refused)).status).toBe(401);

      const again = new Browser();
      expect((await backAtTheApp(again, await throughProvider(again, known))).location).toBe("/dashboard");
      expect((await me(again)).body?.id).toBe(memberId);
      // The stranger's sign-in created nothing: once open again it would be a new account, not found now.
      const second = new Browser();
      expect(
        await loginScreenMessage(
          second,
          (await backAtTheApp(second, await throughProvider(second, stranger))).location,
        ),
      ).toContain("registration on this studio is closed");
    },
    SERVER_START_TIMEOUT_MS,
  );
});

describe("single sign-on by invitation, behind a proxy named by PUBLIC_URL", () => {
  it(
    "the redirect URI is PUBLIC_URL's; an unknown email joins only from an invitation link, once",
    async () => {
      const publicUrl = "https://studio.example.com";
      const invite = await startSsoApp(provider, { REGISTRATION: "invite", PUBLIC_URL: publicUrl }, [
        `${publicUrl}/auth/oidc/callback`,
      ]);
      try {
        const browser = new Browser();
        const started = await browser.request(`${invite.server.url}/auth/oidc`);
        expect(new URL(started.headers.get("Location")!).searchParams.get("redirect_uri")).toBe(
          `${publicUrl}/auth/oidc/callback`,
        );
        const stranger = uniqueEmail("sso-invitee");
        // Through the provider, whose answer goes to PUBLIC_URL: the proxy there forwards it to the app.
        const saved = appUrl;
        appUrl = invite.server.url;
        let callback: URL;
        try {
          callback = new URL(await throughProvider(browser, stranger));
        } finally {
          appUrl = saved;
        }
        expect(callback.origin).toBe(publicUrl);
        const { answer, location } = await backAtTheApp(
          browser,
          `${invite.server.url}${callback.pathname}${callback.search}`,
        );
        expect(location).toBe("/login");
        expect(answer.headers.getSetCookie().some((line) => line.startsWith("__Host-session="))).toBe(false);
        const page = await browser.request(`${invite.server.url}/login`);
        expect(await page.text()).toContain(
          `No account uses ${stranger}. New people join this studio by invitation: open your invitation link, then sign up with ${SSO_NAME} there.`,
        );

        // The operator's invitation link: its Register screen offers to sign up through the provider, invitation and all.
        const made = await runAdmin(["invite", "--days", "1"], {
          dataDir: invite.server.dataDir,
          env: { PUBLIC_URL: publicUrl },
        });
        expect(made.code, made.stderr).toBe(0);
        const code = /invite=([\w-]+)/.exec(made.stdout)?.[1];
        expect(code).toBeTruthy();
        const register = await (await browser.request(`${invite.server.url}/register?invite=${code}`)).text();
        const signUp = /<a class="button sso-link" href="([^"]+)">Sign up with ([^<]+)</.exec(register);
        expect(signUp?.[2]).toBe(SSO_NAME);
        const start = signUp![1].replace(/&amp;/g, "&");
        expect(start).toBe(`/auth/oidc?invite=${code}`);
        const signUpThrough = async (who: Browser, email: string) => {
          appUrl = invite.server.url;
          try {
            const at = new URL(await throughProvider(who, email, start));
            return backAtTheApp(who, `${invite.server.url}${at.pathname}${at.search}`);
          } finally {
            appUrl = saved;
          }
        };
        // A browser of its own: the first one is still signed in at the provider, which would skip its form.
        const joiner = new Browser();
        const joined = await signUpThrough(joiner, stranger);
        expect(joined.location).toBe("/dashboard");
        expect(joined.answer.headers.getSetCookie().some((line) => line.startsWith("__Host-session="))).toBe(true);
        const who = await joiner.request(`${invite.server.url}/api/auth/me`);
        expect(((await who.json()) as { email: string }).email).toBe(stranger);

        // The link is spent: someone else who follows it is refused, and nothing is created for them.
        const latecomer = uniqueEmail("sso-latecomer");
        const other = new Browser();
        const refused = await signUpThrough(other, latecomer);
        expect(refused.location).toBe("/login");
        expect(refused.answer.headers.getSetCookie().some((line) => line.startsWith("__Host-session="))).toBe(false);
        expect(await (await other.request(`${invite.server.url}/login`)).text()).toContain(
          `No account uses ${latecomer}, and the invitation link you began with has been used or has expired. Ask the person who runs this studio for a new one.`,
        );
        const users = await runAdmin(["users"], { dataDir: invite.server.dataDir });
        expect(users.stdout).toContain(stranger);
        expect(users.stdout).not.toContain(latecomer);
      } finally {
        await invite.stop();
      }
    },
    SERVER_START_TIMEOUT_MS,
  );

  it("behind a trusted proxy without PUBLIC_URL, the redirect URI is the proxy's X-Forwarded-Proto and -Host", async () => {
    // The app under test trusts loopback proxies (TRUST_PROXY=loopback, tests/support/server.ts).
    const started = await fetch(appUrl + "/auth/oidc", {
      headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "studio.example.org" },
      redirect: "manual",
    });
    expect(new URL(started.headers.get("Location")!).searchParams.get("redirect_uri")).toBe(
      "https://studio.example.org/auth/oidc/callback",
    );
  });
});

describe("an unreachable provider", () => {
  it(
    "is reported on the Login screen, never as a 500",
    async () => {
      // A loopback port nobody listens on.
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = (closed.address() as net.AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const app = await startTestServer({
        OIDC_ISSUER: `http://127.0.0.1:${port}`,
        OIDC_CLIENT_ID: "studio",
        OIDC_CLIENT_SECRET: "secret",
        OIDC_NAME: "Nowhere",
      });
      try {
        const browser = new Browser();
        const started = await browser.request(`${app.url}/auth/oidc?redirectTo=/projects`);
        expect(started.status).toBe(302);
        expect(started.headers.get("Location")).toBe("/login?redirectTo=%2Fprojects");
        const page = await browser.request(`${app.url}/login?redirectTo=%2Fprojects`);
        expect(await page.text()).toContain(
          "Sign-in with Nowhere is not available right now. Please try again later, or use your password.",
        );
      } finally {
        await app.stop();
      }
    },
    SERVER_START_TIMEOUT_MS,
  );
});

describe("without single sign-on", () => {
  it("the Login screen has no SSO link, and /auth/oidc and its callback are 404", async () => {
    const html = await (await fetch(baseUrl() + "/login")).text();
    expect(html).toContain('aria-label="Login"');
    expect(html).not.toContain("sso-link");
    for (const path of ["/auth/oidc", "/auth/oidc/callback?code=x&state=y"]) {
      expect((await fetch(baseUrl() + path, { redirect: "manual" })).status).toBe(404);
    }
  });

  it(
    "a partial set of settings stops the server at start, naming what is missing",
    async () => {
      await expect(
        launchServer({
          env: { OIDC_ISSUER: "https://id.example.com", OIDC_CLIENT_ID: "studio" },
          timeoutMs: SERVER_START_TIMEOUT_MS,
        }),
      ).rejects.toThrow(
        /OIDC_CLIENT_SECRET must be set too: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET together/,
      );
    },
    SERVER_START_TIMEOUT_MS,
  );
});
