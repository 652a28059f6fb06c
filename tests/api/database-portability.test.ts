import { describe, expect, it } from "vitest";
import { api, newUser, PASSWORD, uniqueEmail } from "../support/api";

/**
 * What must answer the same on SQLite and PostgreSQL (decision 0015): the health check names the engine,
 * and text holding U+0000 (which PostgreSQL refuses in `text`, 22021) is stored without it or refused,
 * never a 500. `npm run test:pg` runs this file against PostgreSQL, `npm test` against SQLite.
 */
const expectedEngine = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? "") ? "postgres" : "sqlite";

describe("GET /api/health", () => {
  it(`names the database engine beside its status (${expectedEngine} here)`, async () => {
    const { status, body } = await api("/api/health");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "ok",
      database: "ok",
      database_engine: expectedEngine,
      storage: "ok",
      storage_kind: "file",
      job_runner: "ok",
    });
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining([
        "status",
        "test_mode",
        "providers",
        "database",
        "database_engine",
        "job_runner",
        "version",
      ]),
    );
  });
});

describe("U+0000 in what people send", () => {
  it("content: title and body are stored without it", async () => {
    const user = await newUser("nul");
    const created = await api("/api/content", {
      token: user.token,
      json: { title: "a\u0000b", body: "line\u0000one" },
    });
    expect(created.status).toBe(201);
    expect(created.body.body).toBe("lineone");
    expect(created.body.title).not.toContain("\u0000");
    const saved = await api(`/api/content/${created.body.id}/autosave`, {
      token: user.token,
      json: { title: "t\u0000", body: "x\u0000y" },
    });
    expect(saved.status).toBeLessThan(300);
    const read = await api(`/api/content/${created.body.id}`, { token: user.token });
    expect(read.body.body).toBe("xy");
  });

  it("projects: title and description are stored without it", async () => {
    const user = await newUser("nul");
    const created = await api("/api/project/create", {
      token: user.token,
      json: { title: "p\u0000q", description: "d\u0000e" },
    });
    expect(created.status).toBe(201);
    expect(created.body.description).toBe("de");
    expect(created.body.title).not.toContain("\u0000");
  });

  it("feedback: name and message are stored without it; an email with it is refused (422)", async () => {
    expect(
      (await api("/api/feedback", { json: { name: "N\u0000", email: "n@example.com", message: "m\u0000m" } })).status,
    ).toBe(200);
    const refused = await api("/api/feedback", { json: { name: "N", email: "n\u0000@example.com", message: "m" } });
    expect(refused.status).toBe(422);
  });

  it("AI video: the prompt is stored without it", async () => {
    const user = await newUser("nul");
    const created = await api("/api/aivideo", { token: user.token, json: { prompt: "a\u0000sunset" } });
    expect(created.status).toBe(202);
    const id = created.body.id ?? created.body.job_id;
    const status = await api(`/api/aivideo/status/${id}`, { token: user.token });
    expect(status.status).toBe(200);
    expect(JSON.stringify(status.body)).not.toContain("\\u0000");
  });

  it("register refuses an email with it (422); login with it is an unknown account (401), not a 500", async () => {
    const email = uniqueEmail("nul");
    expect((await api("/api/auth/register", { json: { email: `${email}\u0000`, password: PASSWORD } })).status).toBe(
      422,
    );
    expect((await api("/api/auth/register", { json: { email, password: PASSWORD } })).status).toBe(201);
    const login = await api("/api/auth/login", { json: { email: `\u0000${email}`, password: PASSWORD } });
    expect(login.status).toBe(401);
    expect((await api("/api/auth/login", { json: { email, password: PASSWORD } })).status).toBe(200);
  });
});

describe("emails", () => {
  it("are matched without regard to case on both engines (stored lower-cased)", async () => {
    const email = uniqueEmail("Case");
    expect((await api("/api/auth/register", { json: { email: email.toUpperCase(), password: PASSWORD } })).status).toBe(
      201,
    );
    expect((await api("/api/auth/login", { json: { email, password: PASSWORD } })).status).toBe(200);
    expect((await api("/api/auth/register", { json: { email, password: PASSWORD } })).status).toBe(409);
  });
});
