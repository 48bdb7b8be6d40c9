// The measuring entry (issue #30): the deployed Worker (entry.mjs), with
// every binding of its request path wrapped so that each call is counted as
// one trip by kind, and delayed by `--simulate`. Local only: chosen by
// `scripts/edge.sh serve --measure` (js/local.mjs), never by wrangler.toml,
// whose `main` stays js/entry.mjs.
//
// What is a trip:
//   d1_primary      one request of the `DB` binding to its database (a
//                   statement's raw/all/run/first, a batch, an exec): the
//                   binding's fetcher is wrapped, so whatever the API, one
//                   round trip is one count;
//   d1_replica      the same through the simulated replica (below);
//   durable_object  one `fetch` of a Durable Object stub (RATE_LIMITER,
//                   DISPATCHER);
//   kv              one `get`/`put`/`delete`/`list` of SNAPSHOTS.
// rows_read and rows_written add up the `meta` of every D1 result.
// What runs inside the Durable Objects (the dispatcher's alarm rounds) is not
// a request's trip and is not counted: they get the runtime's own env.
//
// `GET /__local/trips` answers the counts since the last
// `POST /__local/trips/reset`; `?settle=1` first waits for the `waitUntil`
// work of every request so far (the decision log's flush, a kick);
// `?at=answer` gives the counts as they stood when the latest request was
// answered, before its `waitUntil` work went on. All answer only with the
// local tools on (CGW_LOCAL_TOOLS=enabled).
//
// `POST /__local/rules-timing?name=EXPORT&n=N` (local tools only) times the
// rules component as the Worker calls it (`globalThis.cgwRulesCall`, JSON in
// and out, the jco-transpiled component): the arguments of the latest call
// of EXPORT made by a request are replayed N times inside the isolate.
// Workers' clocks move only at I/O, so the calls run between two timer
// turns, and the same two turns without calls are taken off; answers
// {"name", "n", "ms_total", "ns_per_call", "calls_seen"}.
//
// Replica hook (host-edge/js/replica.mjs, the replica simulation): when that
// module exists, the launcher's generated entry passes it here as `replica`,
// and `replica.simulate(hooks)` must answer the binding the Worker gets as
// `DB`, given hooks = {
//   D1Database,     the runtime's D1 binding class (its constructor takes a fetcher;
//                   the Rust side checks the class name, so build the binding with it),
//   primary,        a fetcher to the primary database, counted as d1_primary and delayed,
//   replica,        a fetcher to the replica database (`DB_REPLICA`), counted as d1_replica and delayed,
//   replicaRaw,     the same, uncounted and undelayed: for replaying committed batches,
//   primaryRaw,     the primary, uncounted (for reading what to replay, if needed),
//   lagMs,          `replica_lag` of --simulate in ms, or null for `never`,
//   fenceOff,       true when CGW_REPLICA_FENCE=off (tests only: replica answers claim to be current),
//   track(promise), keeps a promise alive as waitUntil work and makes `?settle=1` wait for it
// }. Without the module, `DB` is the primary alone and `d1_replica` stays 0.
import base, { KeyRateLimiter, Dispatcher } from "./entry.mjs";
import { parseSimulate, TRIP_KINDS } from "./simulate.mjs";

export { KeyRateLimiter, Dispatcher };

// The rules calls of requests: the latest arguments and a count per export.
const rulesSeen = new Map();
const rulesCall = globalThis.cgwRulesCall;
globalThis.cgwRulesCall = (name, args) => {
  const seen = rulesSeen.get(name) ?? { args, calls: 0 };
  seen.args = args;
  seen.calls += 1;
  rulesSeen.set(name, seen);
  return rulesCall(name, args);
};

const zero = () => ({ ...Object.fromEntries(TRIP_KINDS.map((k) => [k, 0])), rows_read: 0, rows_written: 0 });
let trips = zero();
// the counts when the latest request was answered, before its waitUntil work went on
let answered = zero();
const pending = new Set();
let currentCtx;

const sleep = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

// Keeps `promise` alive as waitUntil work of `ctx` (the latest request's
// unless given) and makes `?settle=1` wait for it.
function track(promise, ctx = currentCtx) {
  const settled = Promise.resolve(promise).catch(() => {});
  pending.add(settled);
  settled.finally(() => pending.delete(settled));
  ctx?.waitUntil(settled);
  return promise;
}

// Adds a D1 answer's meta (one result, or one per statement of a batch).
function addRows(answer) {
  for (const result of Array.isArray(answer) ? answer : [answer]) {
    trips.rows_read += Number(result?.meta?.rows_read ?? 0);
    trips.rows_written += Number(result?.meta?.rows_written ?? 0);
  }
}

// A D1 fetcher that counts each request as a trip of `kind`, delayed.
function countedFetcher(real, kind, delays) {
  return {
    async fetch(input, init) {
      trips[kind] += 1;
      await sleep(delays[kind]);
      const response = await real.fetch(input, init);
      try {
        addRows(await response.clone().json());
      } catch {
        // not JSON: an error answer the binding reports itself
      }
      return response;
    },
  };
}

// Calls of `target`'s methods, bound to it (native objects refuse a proxy as `this`).
function forwarding(target, overrides) {
  return new Proxy(target, {
    get(t, name) {
      if (Object.hasOwn(overrides, name)) return overrides[name];
      const value = Reflect.get(t, name);
      return typeof value === "function" && name !== "constructor" ? value.bind(t) : value;
    },
  });
}

function countedStub(stub, delays) {
  return forwarding(stub, {
    fetch: async (...args) => {
      trips.durable_object += 1;
      await sleep(delays.durable_object);
      return stub.fetch(...args);
    },
  });
}

function countedNamespace(namespace, delays) {
  return forwarding(namespace, {
    get: (id, options) => countedStub(namespace.get(id, options), delays),
    getByName: (name, options) => countedStub(namespace.getByName(name, options), delays),
  });
}

function countedKv(kv, delays) {
  const counted = (method) => async (...args) => {
    trips.kv += 1;
    await sleep(delays.kv);
    return kv[method](...args);
  };
  return forwarding(kv, Object.fromEntries(["get", "getWithMetadata", "put", "delete", "list"].map((m) => [m, counted(m)])));
}

// The wrapped env, made once per isolate (bindings keep their identity).
let wrapped;
function measuredEnv(env, replica) {
  if (wrapped?.source === env) return wrapped.env;
  const { delays, replicaLagMs } = parseSimulate(env.CGW_SIMULATE ?? "");
  const D1Database = env.DB.constructor;
  const primary = countedFetcher(env.DB.fetcher, "d1_primary", delays);
  let db = new D1Database(primary);
  if (replica?.simulate && env.DB_REPLICA) {
    db = replica.simulate({
      D1Database,
      primary,
      replica: countedFetcher(env.DB_REPLICA.fetcher, "d1_replica", delays),
      replicaRaw: env.DB_REPLICA.fetcher,
      primaryRaw: env.DB.fetcher,
      lagMs: replicaLagMs,
      fenceOff: env.CGW_REPLICA_FENCE === "off",
      track,
    });
  }
  const overrides = {
    DB: db,
    RATE_LIMITER: countedNamespace(env.RATE_LIMITER, delays),
    DISPATCHER: countedNamespace(env.DISPATCHER, delays),
  };
  if (env.SNAPSHOTS) overrides.SNAPSHOTS = countedKv(env.SNAPSHOTS, delays);
  const measuredEnv = new Proxy(env, { get: (t, name) => (Object.hasOwn(overrides, name) ? overrides[name] : Reflect.get(t, name)) });
  wrapped = { source: env, env: measuredEnv };
  return measuredEnv;
}

async function settle() {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

const json = (body) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });

// One timer turn: the clock of a Worker moves only here.
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

async function rulesTiming(url) {
  const name = url.searchParams.get("name") ?? "";
  const n = Math.min(Math.max(Number(url.searchParams.get("n") ?? "1000") || 1000, 1), 1_000_000);
  const seen = rulesSeen.get(name);
  if (seen === undefined) return new Response(`no request has called ${name} yet`, { status: 404 });
  const span = async (calls) => {
    await turn();
    const start = Date.now();
    for (let i = 0; i < calls; i += 1) rulesCall(name, seen.args);
    await turn();
    return Date.now() - start;
  };
  await span(Math.min(n, 1000));
  const empty = await span(0);
  const total = await span(n);
  const ms = Math.max(total - empty, 0);
  return json({ name, n, ms_total: ms, ns_per_call: (ms * 1e6) / n, calls_seen: seen.calls });
}

async function trips_route(request) {
  const url = new URL(request.url);
  if (url.pathname === "/__local/rules-timing" && request.method === "POST") {
    return rulesTiming(url);
  }
  if (url.pathname === "/__local/trips/reset" && request.method === "POST") {
    await settle();
    trips = zero();
    answered = zero();
    return json(trips);
  }
  if (url.pathname === "/__local/trips" && request.method === "GET") {
    if (url.searchParams.get("at") === "answer") return json(answered);
    if (url.searchParams.get("settle") === "1") await settle();
    return json(trips);
  }
  return undefined;
}

// The entry, with the replica simulation when given.
export function measured({ replica } = {}) {
  return {
    async fetch(request, env, ctx) {
      if (env.CGW_LOCAL_TOOLS === "enabled" && /^\/__local\/(trips|rules-timing)/.test(new URL(request.url).pathname)) {
        const answer = await trips_route(request);
        if (answer) return answer;
      }
      currentCtx = ctx;
      const measuredCtx = {
        waitUntil: (promise) => {
          track(promise, ctx);
        },
        passThroughOnException: () => ctx.passThroughOnException(),
        props: ctx.props,
      };
      const response = await base.fetch(request, measuredEnv(env, replica), measuredCtx);
      answered = { ...trips };
      return response;
    },
    scheduled: (event, env, ctx) => base.scheduled(event, measuredEnv(env, replica), ctx),
  };
}
