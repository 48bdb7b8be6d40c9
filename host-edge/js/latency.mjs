// Latency, trips and rows of the checks at the edge (issue #30, items 3–4),
// a benchmark, not a test: starts the measuring entry on loopback with
// simulated trip delays, makes a production tenant with a screened player
// and a daily limit, and sends sequential requests as an operator near its
// players would (warm isolate, `CF-Connecting-IP: 203.0.113.7`).
//
//   node host-edge/js/latency.mjs [--simulate SPEC] [--requests N] [--seconds S] [--port P] [--json FILE] [--no-build]
//
// `--no-build` serves the Worker already built in host-edge/build (straight
// through js/local.mjs) instead of `scripts/edge.sh`, which builds first.
//
// SPEC defaults to d1_primary=150,d1_replica=5,durable_object=5 (replica
// lag 0). For each route it prints p50/p99 of the client's wall time per
// request, and per request the trips before the answer (`?at=answer`: as
// they stood when it was answered, before its waitUntil work) and after
// it (`?settle=1`), with D1's rows read and written. Each request starts
// from a settled reset, so a page of decisions is written per request
// there (`alone`); then the same requests back to back for S seconds
// without a reset (`back_to_back`: latency, rate, trips and rows per
// check as a warm isolate spreads its key reads and pages). Then the rules component as the
// Worker calls it (`POST /__local/rules-timing`) for the exports the
// requests called. Loopback only; the state is a fresh temporary directory.
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const spec = option("simulate", "d1_primary=150,d1_replica=5,durable_object=5");
const requests = Number(option("requests", "40"));
const seconds = Number(option("seconds", "10"));
const port = Number(option("port", String(20000 + Math.floor(Math.random() * 20000))));
const jsonOut = option("json");
const PUBLIC = "203.0.113.7";
const base = `http://127.0.0.1:${port}`;

const state = mkdtempSync(path.join(tmpdir(), "cgw-edge-latency-"));
const noBuild = args.includes("--no-build");
// the key that seals secrets in this state directory, as scripts/edge.sh makes it
writeFileSync(path.join(state, "secret.key"), randomBytes(32).toString("base64"), { mode: 0o600 });
const [tool, toolArgs] = noBuild ? ["node", [path.join(root, "host-edge/js/local.mjs")]] : [path.join(root, "scripts/edge.sh"), []];
const admin = execFileSync(tool, [...toolArgs, "admin-key", "--environment", "production", "--state", state], { encoding: "utf8" }).trim();
const server = spawn(tool, [...toolArgs, "serve", "--port", String(port), "--state", state, "--local-tools", "--measure", "--simulate", spec], {
  stdio: ["ignore", "ignore", "inherit"],
  detached: true,
});
let files;
const stop = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // gone already
  }
  files?.close();
  rmSync(state, { recursive: true, force: true });
};
process.on("exit", stop);
process.on("SIGINT", () => process.exit(130));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function send(key, method, route, body, headers = {}) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "cf-connecting-ip": PUBLIC, ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: json ?? text };
}
// settle: after the waitUntil work; "answer": as they stood when the latest request was answered
const trips = async (settle) => (await fetch(`${base}/__local/trips${settle === "answer" ? "?at=answer" : settle ? "?settle=1" : ""}`)).json();
const reset = () => fetch(`${base}/__local/trips/reset`, { method: "POST" }).then((r) => r.text());
const must = (answer, status, what) => {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};

for (let i = 0; ; i += 1) {
  try {
    if ((await fetch(`${base}/__local/trips`)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 1200) throw new Error("the measuring entry did not answer within 600 s");
  await sleep(500);
}

// A production list with one listed person, served from loopback and staged by the local tools.
const csv =
  "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n" +
  "LAT-1,Person,Zebulon Quaxworth,,1970-01-01,gb,,,Test sanctions,,,,test,2026-01-01,2026-01-01,2026-01-01\n";
files = createServer((_, res) => res.end(csv));
await new Promise((resolve) => files.listen(0, "127.0.0.1", resolve));
const listUrl = `http://127.0.0.1:${files.address().port}/list.csv`;
const staged = await (
  await fetch(`${base}/__local/lists-import?environment=production&format=opensanctions-csv&source=latency&url=${encodeURIComponent(listUrl)}`, {
    method: "POST",
  })
).json();
for (let i = 0; ; i += 1) {
  const lists = must(await send(admin, "GET", "/v1/admin/sanctions/lists"), 200, "lists");
  if (lists.lists?.some((l) => l.list_id === staged.list_id)) break;
  if (i > 480) throw new Error(`the production list was not switched in: ${JSON.stringify(lists)}`);
  await sleep(250);
}
const tenant = must(
  await send(admin, "POST", "/v1/admin/tenants", { name: "latency", environment: "production", rate_limit_per_minute: 1_000_000 }),
  201,
  "tenant",
);
const key = tenant.api_key;
const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");
const identity = (user) => ({ user_id: user, first_name: "Ann", last_name: "Lee", date_of_birth: "1990-04-01", nationality: "GB", email: `${user}@example.com` });
must(await send(key, "POST", "/v1/sanctions/screen", identity("p1")), 201, "screen p1");
must(
  await send(key, "POST", "/v1/limits", { user_id: "p1", limit_type: "limit_daily", amount_cents: 1_000_000_000, currency: "USD", requested_at: now() }),
  201,
  "limit",
);

let serial = 0;
const routes = {
  "GET /v1/exclusions/check": () => send(key, "GET", "/v1/exclusions/check?email=player@example.com"),
  "POST /v1/limits/check": () => send(key, "POST", "/v1/limits/check", { user_id: "p1", amount_cents: 500, currency: "USD" }),
  "POST /v1/limits/commit": () =>
    send(key, "POST", "/v1/limits/commit", { transaction_id: `lat-${process.pid}-${(serial += 1)}`, user_id: "p1", amount_cents: 1, currency: "USD" }),
  "POST /v1/sanctions/screen": () => send(key, "POST", "/v1/sanctions/screen", identity(`s${process.pid}-${(serial += 1)}`)),
};

// the status a success answers: a commit and a screening create a record
const created = (name) => (name.includes("screen") || name.includes("commit") ? 201 : 200);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const kinds = ["d1_primary", "d1_replica", "durable_object", "kv", "rows_read", "rows_written"];
const results = {};
for (const [name, request] of Object.entries(routes)) {
  // warm: the isolate, the key's lease, the key cache
  for (let i = 0; i < 5; i += 1) must(await request(), created(name), name);
  const wall = [];
  const before = [];
  const after = [];
  for (let i = 0; i < requests; i += 1) {
    await reset();
    const start = process.hrtime.bigint();
    const answer = await request();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    must(answer, created(name), name);
    before.push(await trips("answer"));
    after.push(await trips(true));
    wall.push(ms);
  }
  const per = (list) => Object.fromEntries(kinds.map((k) => [k, Number(mean(list.map((t) => t[k])).toFixed(3))]));
  // back to back, no reset between: the warm isolate at the rate one
  // sequential caller reaches; the key read once a clock second and the
  // pages of decisions spread over the checks as they do in service
  await reset();
  const run = [];
  const runStarted = Date.now();
  while (Date.now() - runStarted < seconds * 1000) {
    const start = process.hrtime.bigint();
    must(await request(), created(name), name);
    run.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const runSeconds = (Date.now() - runStarted) / 1000;
  const total = await trips(true);
  const ms = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { n: list.length, p50_ms: Number(percentile(sorted, 50).toFixed(1)), p99_ms: Number(percentile(sorted, 99).toFixed(1)), max_ms: Number(sorted[sorted.length - 1].toFixed(1)) };
  };
  results[name] = {
    alone: { ...ms(wall), before: per(before), settled: per(after) },
    back_to_back: { ...ms(run), per_second: Number((run.length / runSeconds).toFixed(1)), per_check: Object.fromEntries(kinds.map((k) => [k, Number((total[k] / run.length).toFixed(3))])) },
  };
}

const rules = {};
for (const name of ["describeExclusions", "decideDeposit"]) {
  const r = await fetch(`${base}/__local/rules-timing?name=${name}&n=20000`, { method: "POST" });
  rules[name] = r.ok ? await r.json() : await r.text();
}

const report = { simulate: spec, requests, routes: results, rules_at_the_edge: rules };
console.log(JSON.stringify(report, null, 2));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report, null, 2));
process.exit(0);
