// A real OpenID provider (oidc-provider from npm) on a free 127.0.0.1 port, for the single sign-on
// tests (tests/api/oidc.test.ts, tests/e2e/oidc.spec.ts). Run by tests/support/oidc.ts with an IPC
// channel (child_process.fork): it sends { type: "ready", issuer } once it listens, and registers a
// client on { type: "client", client_id, client_secret, redirect_uris } (answering
// { type: "client-ready", client_id }), since the app's redirect URI is known only once the app listens.
//
// Accounts: any email typed into its sign-in page is an account (sub = the email); an email whose
// local part starts with "unverified" has email_verified false, every other true. The page is plain
// HTML (no JavaScript): "Sign in" finishes the interaction (login and consent to the client's scopes
// at once), "Cancel" answers the client with error=access_denied.
import http from "node:http";
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "test-key" };

/** The claims of the account an email names. */
function accountOf(email) {
  const local = email.split("@")[0] ?? "";
  return {
    accountId: email,
    async claims() {
      return { sub: email, email, email_verified: !local.startsWith("unverified"), name: local };
    },
  };
}

const server = http.createServer();
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString("hex")] },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => true },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: (_ctx, id) => accountOf(id),
  // The process's own log is enough: no stack traces for the refusals the tests provoke.
  renderError: async (ctx, out) => {
    ctx.type = "html";
    ctx.body = `<!doctype html><title>Provider error</title><h1>Provider error</h1><p>${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? "")}</p>`;
  },
});

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function signInPage(uid, clientId) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Test provider: sign in</title></head>
<body>
<h1>Test provider</h1>
<p>Sign in to continue to ${escapeHtml(clientId)}.</p>
<form method="post" action="/interaction/${uid}/login">
  <label>Email <input type="email" name="email" required autocomplete="off"></label>
  <button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>
</body></html>`;
}

/** The sign-in pages of interactions (everything else is the provider's). */
async function interaction(req, res) {
  const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(new URL(req.url, issuer).pathname);
  if (!match) return false;
  const details = await provider.interactionDetails(req, res);
  const [, uid, step] = match;
  if (uid !== details.uid) throw new Error("interaction mismatch");
  if (req.method === "GET" && !step) {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(signInPage(uid, details.params.client_id));
    return true;
  }
  if (req.method !== "POST" || !step) {
    res.writeHead(405).end();
    return true;
  }
  if (step === "/abort") {
    await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The person cancelled the sign-in" },
      { mergeWithLastSubmission: false },
    );
    return true;
  }
  const email = (await readForm(req)).get("email")?.trim();
  if (!email) {
    res.writeHead(400, { "Content-Type": "text/plain" }).end("email is required");
    return true;
  }
  const grant = new provider.Grant({ accountId: email, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope ?? "openid"));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: email }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
  return true;
}

const callback = provider.callback();
server.on("request", (req, res) => {
  interaction(req, res)
    .then((handled) => {
      if (!handled) callback(req, res);
    })
    .catch((error) => {
      console.error("[oidc-provider]", error);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(String(error?.message ?? error));
    });
});

process.on("message", async (message) => {
  if (message?.type === "client") {
    await provider.Client.adapter.upsert(message.client_id, {
      client_id: message.client_id,
      client_secret: message.client_secret,
      redirect_uris: message.redirect_uris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    });
    process.send({ type: "client-ready", client_id: message.client_id });
  }
});
// The test that started it went away: so does the provider.
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));

process.send({ type: "ready", issuer });
