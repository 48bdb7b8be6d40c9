// The replica simulation of `scripts/edge.sh serve --measure --simulate
// replica_lag=MS|never` (issue #30). Local only: the measuring entry
// (js/measure.mjs) calls `simulate(hooks)` for the `DB` the Worker gets, and
// the launcher's generated entry exports this module's `Heartbeat`.
//
// Locally there is one D1 instance and no replica, so a second local D1
// (`DB_REPLICA`) plays the replica: each batch committed on the primary is
// replayed on it, in commit order, once `replica_lag` ms have passed (never,
// for `never`: a frozen replica that lacks even the schema). The replay is
// applied when a read reaches the replica (all batches due by then, in one
// replica batch), so nothing runs between requests and nothing outlives one.
//
// Routing is done on the wire, where the D1 binding talks to its database:
// a request carries the session's constraint or bookmark in the
// `x-cf-d1-session-commit-token` header (D1 Sessions API, `withSession`).
//   - reads of a `first-unconstrained` session go to the replica (d1_replica);
//   - reads of a session at a bookmark go to the replica once it has applied
//     that bookmark, otherwise to the primary (an instance at least as
//     recent as the bookmark, as D1 promises);
//   - everything else (writes, `first-primary`, no session) goes to the
//     primary (d1_primary), and a committed write is logged for the replay.
// Answers say who served them (`meta.served_by_primary`, as D1's do); a
// replica's answer carries the primary bookmark it has reached.
//
// `CGW_REPLICA_FENCE=off` in the launcher's environment (tests only) makes
// the replica claim to be the primary, so the Worker trusts it as current:
// the fence bypassed, for the negative twin of the replica-lag tests.
import { Heartbeat as DeployedHeartbeat, Dispatcher as DeployedDispatcher } from "./entry.mjs";
import { parseSimulate } from "./simulate.mjs";

const TOKEN = "x-cf-d1-session-commit-token";

// One simulation per isolate: the Worker and its Durable Objects share it.
const sim = {
  configured: false,
  // null: never
  lagMs: 0,
  fenceOff: false,
  // committed primary writes not yet applied: {at, queries, token}
  log: [],
  // the primary bookmark of the latest write the replica applied
  position: undefined,
  replicaRaw: undefined,
  primaryRaw: undefined,
  // the copy of what the primary held before the simulation started
  baseline: undefined,
};

function configure({ lagMs, fenceOff, replicaRaw, primaryRaw }) {
  if (sim.configured) return;
  Object.assign(sim, { configured: true, lagMs, fenceOff, replicaRaw, primaryRaw });
}

// What the primary held before this isolate's first request (the schema
// and keys `edge.sh admin-key` wrote) is copied to the replica once, before
// any request goes through, so that the replay starts from the same state.
// A frozen replica (`never`) gets nothing, not even the schema.
function baseline() {
  if (sim.lagMs === null || sim.primaryRaw === undefined) return Promise.resolve();
  sim.baseline ??= (async () => {
    const dump = await sim.primaryRaw.fetch("http://d1/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ sql: "PRAGMA miniflare_d1_export(?,?,?);", params: [0, 0] }]),
    });
    const statements = (await dump.json())?.results?.[0] ?? [];
    if (statements.length === 0) return;
    const copied = await sim.replicaRaw.fetch("http://d1/query?resultsFormat=NONE", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(statements.map((sql) => ({ sql }))),
    });
    const answer = await copied.json().catch(() => null);
    if (!Array.isArray(answer)) console.error(`replica simulation: the baseline copy failed: ${JSON.stringify(answer)}`);
  })();
  return sim.baseline;
}

// A statement that only reads (D1 routes writes to the primary whatever the session).
const reads = (sql) => /^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*(select|with)\b/i.test(sql) && !/\b(insert|update|delete|replace|create|drop|alter)\b/i.test(sql);

async function parse(request) {
  try {
    const body = JSON.parse(await request.clone().text());
    return Array.isArray(body) ? body : [body];
  } catch {
    return [];
  }
}

// Applies every logged write due by now on the replica, in one batch (one
// request, sent before any read that follows it).
async function catchUp() {
  if (sim.lagMs === null || sim.replicaRaw === undefined) return;
  const now = Date.now();
  let due = 0;
  while (due < sim.log.length && sim.log[due].at + sim.lagMs <= now) due += 1;
  if (due === 0) return;
  const batch = sim.log.splice(0, due);
  sim.position = batch[batch.length - 1].token ?? sim.position;
  const response = await sim.replicaRaw.fetch("http://d1/query?resultsFormat=NONE", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(batch.flatMap((op) => op.queries)),
  });
  const answer = await response.json().catch(() => null);
  if (!Array.isArray(answer)) console.error(`replica simulation: a replay failed: ${JSON.stringify(answer)}`);
}

// Logs a committed write for the replay, in bookmark (commit) order.
async function record(queries, response) {
  if (sim.lagMs === null) return;
  const answer = await response
    .clone()
    .json()
    .catch(() => null);
  if (!Array.isArray(answer) || !answer.every((r) => r?.success !== false)) return;
  const op = { at: Date.now(), queries, token: response.headers.get(TOKEN) ?? undefined };
  let i = sim.log.length;
  while (i > 0 && op.token !== undefined && sim.log[i - 1].token !== undefined && sim.log[i - 1].token > op.token) i -= 1;
  sim.log.splice(i, 0, op);
}

// The answer with who served it, and the session bookmark it leaves.
async function relabel(response, { primary, token }) {
  const answer = await response.json().catch(() => null);
  const headers = new Headers(response.headers);
  if (token === undefined) headers.delete(TOKEN);
  else if (token !== null) headers.set(TOKEN, token);
  if (Array.isArray(answer)) {
    for (const result of answer) {
      if (result?.meta) {
        result.meta.served_by_primary = primary;
        result.meta.served_by_region = primary ? "SIM-PRIMARY" : "SIM-REPLICA";
      }
    }
  }
  return new Response(answer === null ? null : JSON.stringify(answer), { status: response.status, headers });
}

// The fetcher of the simulated binding: routes each request (above).
function router({ primary, replica }) {
  return {
    async fetch(input, init) {
      await baseline();
      // every request applies what is due: the heartbeat's Durable Object
      // applies its own beats even if it does not share this isolate's log
      await catchUp();
      const request = new Request(input, init);
      const queries = await parse(request);
      const readOnly = queries.length > 0 && queries.every((q) => typeof q?.sql === "string" && reads(q.sql));
      const token = request.headers.get(TOKEN);
      if (readOnly && token !== null && token !== "first-primary") {
        await catchUp();
        const bookmark = token === "first-unconstrained" ? null : token;
        if (bookmark === null || (sim.position !== undefined && sim.position >= bookmark)) {
          const near = new Request(request);
          near.headers.delete(TOKEN);
          return relabel(await replica.fetch(near), { primary: sim.fenceOff, token: sim.position });
        }
        return relabel(await primary.fetch(request), { primary: true, token: null });
      }
      const response = await primary.fetch(request);
      if (!readOnly) await record(queries, response);
      return response;
    },
  };
}

// The hook of js/measure.mjs: the `DB` binding the Worker gets.
export function simulate({ D1Database, primary, replica, replicaRaw, primaryRaw, lagMs, fenceOff }) {
  configure({ lagMs, fenceOff: fenceOff === true, replicaRaw, primaryRaw });
  return new D1Database(router({ primary, replica }));
}

// The env of a Durable Object with the simulated `DB`: its writes are logged
// for the replay as a request's are, and its trips are not counted (what
// runs inside Durable Objects is not a request's trip).
function replicated(env) {
  if (!env.DB_REPLICA) return env;
  configure({
    lagMs: parseSimulate(env.CGW_SIMULATE ?? "").replicaLagMs,
    fenceOff: env.CGW_REPLICA_FENCE === "off",
    replicaRaw: env.DB_REPLICA.fetcher,
    primaryRaw: env.DB.fetcher,
  });
  const db = new env.DB.constructor(router({ primary: env.DB.fetcher, replica: env.DB_REPLICA.fetcher }));
  return new Proxy(env, { get: (t, name) => (name === "DB" ? db : Reflect.get(t, name)) });
}

// The heartbeat's Durable Object, its writes logged for the replay like the Worker's.
export class Heartbeat extends DeployedHeartbeat {
  constructor(state, env) {
    super(state, replicated(env));
  }
}

// The dispatcher's rounds write too (list versions loaded and switched in,
// expiries, retention): on D1 they reach the replicas as any write does.
export class Dispatcher extends DeployedDispatcher {
  constructor(state, env) {
    super(state, replicated(env));
  }
}
