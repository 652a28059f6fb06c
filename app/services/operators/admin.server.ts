import { closeDatabase, openDatabase } from "~/lib/db/db.server";
import { env, type Settings } from "~/lib/settings/env.server";
import { closeFileStore, openFileStore } from "~/lib/storage/storage.server";
import { formatBytes } from "~/common/bytes";
import { createInvitation, INVITATION_DEFAULT_DAYS, INVITATION_MAX_DAYS } from "~/models/accounts/invitation.server";
import {
  deletePersonRows,
  disablePerson,
  enablePerson,
  findPersonByEmail,
  listPeople,
  personFootprint,
  setAiDailyLimit,
  setStorageQuota,
  type PersonRow,
} from "~/models/operators/operator.server";
import { revokeAllApiTokens } from "~/models/accounts/api-token.server";
import { revokeOtherSessions } from "~/models/accounts/sessions.server";
import { revokeAllShares } from "~/models/sharing/share.server";
import { formatTable, sharesTable } from "./admin-shares.server";
import { statusCommand } from "./admin-status.server";

/**
 * `npm run admin -- <command>` (docs/decisions/0046): the operator's command line, run by
 * scripts/admin.mjs through the server build, so it reads the server's settings (DATA_DIR, DATABASE_URL,
 * STORAGE_URL, ...) with the server's own schema and changes the database through the app's models,
 * on SQLite or PostgreSQL, while the server runs. Exit codes: 0 done, 1 failed or declined, 2 bad arguments.
 */
export const USAGE = `Usage: npm run admin -- <command>

Commands:
  status [--json]              dependencies, instances seen lately, video queue, sessions, storage, live share links
  users                        everyone: email, created, last seen, disabled, storage used / quota, AI requests today / cap
  disable <email>              refuse their login, end their sessions and API tokens and cancel their
                               unfinished video jobs, at once (every instance); their signed links
                               and share links stop (share links work again after enable)
  enable <email>               let them log in again (their API tokens stay revoked: they make new ones)
  quota <email> <MiB|default>  their own storage quota (fractions allowed; default: USER_STORAGE_QUOTA_MB)
  ai-limit <email> <per-day|default>
                               their own daily cap on AI requests (0: none; default: AI_DAILY_LIMIT)
  invite [--days N]            print a one-use /register?invite=CODE link (${INVITATION_DEFAULT_DAYS} days unless --days; origin PUBLIC_URL)
  sessions revoke <email>      end all their sessions (they log in again)
  tokens revoke <email>        end all their personal API tokens (their scripts get 401)
  shares <email>               their live share links: id, kind, title, views / max, expiry, state
  shares revoke <email>        end all their share links at once (their pages and files answer 410)
  delete <email> [--yes]       delete their account, rows and files, after a confirmation (or --yes)
  backup [<folder>]            a snapshot of the database, the files and the generated session secret (npm run backup)
  restore <folder>             put a backup back into an empty data folder, database and store (npm run restore)
  help                         this text

Settings come from the environment as the server reads them (DATA_DIR, DATABASE_URL, STORAGE_URL, ...).`;

export interface AdminIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Asks a question on the terminal; resolves the answer, or null when there is no one to ask (stdin closed). */
  ask: (question: string) => Promise<string | null>;
}

/** Bad arguments: the message on stderr, the usage hint, exit 2. */
class UsageError extends Error {}

const MiB = 1024 * 1024;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function formatTime(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "never";
}

function peopleTable(people: PersonRow[], settings: Settings): string {
  const rows = people.map((person) => {
    const quota = person.ownQuotaBytes ?? settings.storageQuotaBytes;
    const cap = person.ownAiDailyLimit ?? settings.aiDailyLimit;
    return [
      person.email,
      formatTime(person.createdAt),
      formatTime(person.lastSeenAt),
      person.disabledAt ? `yes (${person.disabledAt.slice(0, 10)})` : "no",
      `${formatBytes(person.usedBytes)} / ${formatBytes(quota)}${person.ownQuotaBytes === null ? "" : " (own)"}`,
      `${person.aiRequestsToday} / ${cap === 0 ? "no cap" : cap}${person.ownAiDailyLimit === null ? "" : " (own)"}`,
    ];
  });
  const table = formatTable(
    ["email", "created (UTC)", "last seen (UTC)", "disabled", "storage used / quota", "AI today / cap"],
    rows,
  );
  return `${table}\n${people.length} ${people.length === 1 ? "person" : "people"}`;
}

async function personOrFail(email: string | undefined) {
  if (!email) throw new UsageError("an email is needed");
  const person = await findPersonByEmail(email);
  if (!person) throw new UsageError(`no account with the email ${email}`);
  return person;
}

function expectArguments(args: string[], count: number, shape: string) {
  if (args.length !== count) throw new UsageError(`expected: ${shape}`);
}

/** Parses `--days N` (or `--days=N`). */
function inviteDays(args: string[]): number {
  let days = INVITATION_DEFAULT_DAYS;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    let value: string | undefined;
    if (arg === "--days") value = args[++i];
    else if (arg.startsWith("--days=")) value = arg.slice("--days=".length);
    else throw new UsageError(`unknown argument "${arg}" (expected: invite [--days N])`);
    const parsed = Number(value);
    if (value === undefined || !/^\d+$/.test(value) || parsed < 1 || parsed > INVITATION_MAX_DAYS) {
      throw new UsageError(
        `--days must be a whole number of days from 1 to ${INVITATION_MAX_DAYS}, got "${value ?? ""}"`,
      );
    }
    days = parsed;
  }
  return days;
}

async function runCommand(command: string, args: string[], io: AdminIo, settings: Settings): Promise<number> {
  switch (command) {
    case "users": {
      expectArguments(args, 0, "users");
      io.out(peopleTable(await listPeople(), settings));
      return 0;
    }
    case "disable": {
      expectArguments(args, 1, "disable <email>");
      const person = await personOrFail(args[0]);
      const ended = await disablePerson(person.id);
      io.out(
        `Disabled ${person.email}: login is refused, ${plural(ended.sessions, "session")} ended, ${plural(ended.tokens, "API token")} revoked ` +
          `and ${plural(ended.videoJobs, "video job")} cancelled.`,
      );
      return 0;
    }
    case "enable": {
      expectArguments(args, 1, "enable <email>");
      const person = await personOrFail(args[0]);
      await enablePerson(person.id);
      io.out(`Enabled ${person.email}: they may log in again (API tokens revoked by disable stay revoked).`);
      return 0;
    }
    case "quota": {
      expectArguments(args, 2, "quota <email> <MiB|default>");
      const [email, value] = args;
      let bytes: number | null = null;
      if (value !== "default") {
        const mib = Number(value);
        if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(mib))
          throw new UsageError(`the quota must be a number of MiB (e.g. 2048) or "default", got "${value}"`);
        bytes = Math.floor(mib * MiB);
      }
      const person = await personOrFail(email);
      await setStorageQuota(person.id, bytes);
      io.out(
        bytes === null
          ? `${person.email}'s storage quota is the default again: ${formatBytes(settings.storageQuotaBytes)} (USER_STORAGE_QUOTA_MB).`
          : `${person.email} may now store ${formatBytes(bytes)}.`,
      );
      return 0;
    }
    case "ai-limit": {
      expectArguments(args, 2, "ai-limit <email> <per-day|default>");
      const [email, value] = args;
      let perDay: number | null = null;
      if (value !== "default") {
        if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
          throw new UsageError(
            `the daily cap must be a whole number of AI requests (0: none) or "default", got "${value}"`,
          );
        }
        perDay = Number(value);
      }
      const person = await personOrFail(email);
      await setAiDailyLimit(person.id, perDay);
      const effective = perDay ?? settings.aiDailyLimit;
      const words = effective === 0 ? "no daily cap on AI requests" : `at most ${effective} AI requests a day (UTC)`;
      io.out(`${person.email}: ${words}${perDay === null ? " (AI_DAILY_LIMIT, the default)" : ""}.`);
      return 0;
    }
    case "invite": {
      const days = inviteDays(args);
      const invitation = await createInvitation(days);
      const origin = settings.publicUrl ?? `http://localhost:${settings.port}`;
      io.out(`${origin}/register?invite=${invitation.code}`);
      io.err(
        `One use, until ${formatTime(invitation.expiresAt)} UTC.${settings.publicUrl ? "" : ` PUBLIC_URL is not set: the link names ${origin}; set PUBLIC_URL to the address people use.`}`,
      );
      if (settings.registration !== "invite")
        io.err(
          `Note: REGISTRATION is ${settings.registration}: invitations are asked for only with REGISTRATION=invite.`,
        );
      return 0;
    }
    case "sessions": {
      if (args[0] !== "revoke") throw new UsageError(`expected: sessions revoke <email>`);
      expectArguments(args, 2, "sessions revoke <email>");
      const person = await personOrFail(args[1]);
      const ended = await revokeOtherSessions(person.id, null);
      io.out(`Ended ${ended} session${ended === 1 ? "" : "s"} of ${person.email}: they log in again.`);
      return 0;
    }
    case "tokens": {
      if (args[0] !== "revoke") throw new UsageError(`expected: tokens revoke <email>`);
      expectArguments(args, 2, "tokens revoke <email>");
      const person = await personOrFail(args[1]);
      const revoked = await revokeAllApiTokens(person.id);
      io.out(
        `Revoked ${plural(revoked, "API token")} of ${person.email}: their scripts get 401 until they make new ones.`,
      );
      return 0;
    }
    case "shares": {
      const revoke = args[0] === "revoke";
      expectArguments(args, revoke ? 2 : 1, "shares <email> | shares revoke <email>");
      const person = await personOrFail(args[revoke ? 1 : 0]);
      if (!revoke) {
        io.out(await sharesTable(person.id, settings.publicUrl ?? `http://localhost:${settings.port}`));
        return 0;
      }
      const ended = await revokeAllShares(person.id);
      io.out(`Revoked ${plural(ended, "share link")} of ${person.email}: they answer 410 from now on.`);
      return 0;
    }
    case "delete": {
      const yes = args.includes("--yes");
      const rest = args.filter((arg) => arg !== "--yes");
      const unknown = rest.find((arg) => arg.startsWith("-"));
      if (unknown) throw new UsageError(`unknown option "${unknown}" (expected: delete <email> [--yes])`);
      expectArguments(rest, 1, "delete <email> [--yes]");
      const person = await personOrFail(rest[0]);
      if (!yes) {
        const { items, files, projects } = await personFootprint(person.id);
        const answer = await io.ask(
          `Delete ${person.email} with ${items} item(s), ${files} file(s) and ${projects} project(s)? This cannot be undone. Type the email to confirm: `,
        );
        if (answer?.trim().toLowerCase() !== person.email) {
          io.err("Not confirmed: nothing was deleted.");
          return 1;
        }
      }
      const keys = await deletePersonRows(person.id);
      let failed = 0;
      if (keys.length > 0) {
        // Its own instance id: opening the store clears only this command's temporary folder, never the server's.
        const store = await openFileStore({ ...settings, instanceId: `admin-${process.pid}` });
        for (const key of keys) await store.remove(key).catch(() => failed++);
      }
      io.out(`Deleted ${person.email}: their account, rows and ${keys.length - failed} file(s).`);
      if (failed > 0) io.err(`${failed} file(s) could not be removed now; the store's sweep removes them later.`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** Runs one command line (the words after `npm run admin --`); resolves the exit code. */
export async function runAdmin(argv: string[], io: AdminIo, settings: Settings = env): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    io.out(USAGE);
    return 0;
  }
  const known = ["users", "disable", "enable", "quota", "ai-limit", "invite", "sessions", "tokens", "shares", "delete"];
  if (!known.includes(command) && command !== "status") {
    io.err(`admin: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  try {
    // It opens the database and the store itself: one out of reach is reported, not a failure to run.
    if (command === "status") return await statusCommand(args, io, settings);
    await openDatabase(settings);
    return await runCommand(command, args, io, settings);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`admin ${command}: ${error.message}\nRun \`npm run admin -- help\` for the commands.`);
      return 2;
    }
    io.err(`admin ${command} failed: ${(error as Error)?.message ?? error}`);
    return 1;
  } finally {
    closeFileStore();
    await closeDatabase();
  }
}
