// What the benchmarks share to act as a signed-in browser and to read the server's cost: a cookie jar
// fed by Set-Cookie, a person signed up and in through the login form as a browser is, and the server's
// CPU time and resident memory read from Linux's /proc (null elsewhere). bench/bench.mjs and
// bench/bench-scale.mjs import it; nothing runs on import.
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { formLogin, register } from "../tests/support/client.mjs";

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;
function statFields(pid) {
  return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
}

/**
 * CPU time the server process (and any it started: a cluster's workers) has used so far, in ms, in
 * clock ticks (10 ms). Unlike req/s it barely moves when other work shares the machine, so it is the
 * steadier figure for comparisons.
 */
export function cpuMs(pid) {
  try {
    const parents = new Map();
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        parents.set(Number(entry), Number(statFields(entry)[1]));
      } catch {
        // gone meanwhile
      }
    }
    const tree = new Set([pid]);
    for (let grown = true; grown;) {
      grown = false;
      for (const [child, parent] of parents) {
        if (tree.has(parent) && !tree.has(child)) {
          tree.add(child);
          grown = true;
        }
      }
    }
    let ticks = 0;
    for (const member of tree) {
      try {
        const fields = statFields(member);
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        if (member === pid) return null;
      }
    }
    return (ticks / CLOCK_TICKS) * 1000;
  } catch {
    return null;
  }
}

/**
 * CPU time one process has used so far, in ms to the nanosecond: the sum of its threads' run time
 * from /proc/<pid>/task/<tid>/schedstat (Node's threads live as long as the process, so none is lost
 * between two readings), else cpuMs's clock ticks. A few requests at a time can be measured with it,
 * where ticks of 10 ms need thousands.
 */
export function preciseCpuMs(pid) {
  try {
    let ns = 0;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // a thread gone meanwhile
      }
    }
    return ns / 1e6;
  } catch {
    return cpuMs(pid);
  }
}

/** The process's resident memory now, in MiB (null where /proc is not). */
export function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
  } catch {
    return null;
  }
}

/** A browser's cookie jar, reduced to what the bench needs: name=value pairs, updated by Set-Cookie. */
export function applySetCookies(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";");
    const name = pair.slice(0, pair.indexOf("=")).trim();
    const value = pair.slice(pair.indexOf("=") + 1).trim();
    const gone =
      !value ||
      attributes.some(
        (attribute) =>
          /^\s*max-age\s*=\s*0\s*$/i.test(attribute) || /^\s*expires\s*=\s*thu, 01 jan 1970/i.test(attribute),
      );
    if (gone) jar.delete(name);
    else jar.set(name, value);
  }
  return jar;
}
export const cookieHeader = (jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/**
 * A person as a browser becomes one: registered, then signed in through the login form (with the
 * Origin and Sec-Fetch-Site a browser sends on a same-origin post), then the dashboard it is sent to
 * (which takes any flash cookie the login set); `cookie` is what the browser then sends.
 */
export async function signUpAsBrowser(url, password) {
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
  const registered = await register(url, email, { password });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
  const { id } = registered.body;
  const jar = new Map();
  const login = await formLogin(url, email, { password, browser: true });
  if (login.status !== 302) throw new Error(`login failed: ${login.status}`);
  applySetCookies(jar, login);
  const landed = await fetch(new URL(login.headers.get("Location") ?? "/dashboard", url), {
    headers: { Cookie: cookieHeader(jar) },
    redirect: "manual",
  });
  if (landed.status !== 200) throw new Error(`the page after login answered ${landed.status}`);
  await landed.arrayBuffer();
  applySetCookies(jar, landed);
  return { id, email, cookie: cookieHeader(jar) };
}
