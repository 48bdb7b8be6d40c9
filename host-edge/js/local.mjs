// Local tools of the edge host:
//   node js/local.mjs admin-key --environment sandbox|production --state DIR
//   node js/local.mjs store-contract --state DIR
//   node js/local.mjs admin-key-sql --environment sandbox|production
//   node js/local.mjs serve --port PORT --state DIR [--local-tools]
// `serve` runs the Worker on 127.0.0.1:PORT until killed, straight from
// Miniflare, with wrangler.toml's bindings and vars: the test runners' host.
// `wrangler dev` puts a proxy in front of the Worker whose pooled connection
// to it closes after 5 idle seconds, and a POST written into it as it closes
// is answered 503 "Your worker restarted mid-request" without reaching the
// Worker (cloudflare/workers-sdk#14641); a test host must not lose requests.
// The first two run the Worker under Miniflare on the state directory of
// `scripts/edge.sh dev`, with the bindings of wrangler.toml, and reach its
// `/__local/…` routes, which exist only when the CGW_LOCAL_TOOLS variable is
// set, as it is here and nowhere else. The third prints {key, sql} for a
// deployed Worker's D1, made by the core's own code in the Worker's module.
import { Miniflare } from "miniflare";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const [command, ...rest] = process.argv.slice(2);
const option = (name) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
const fail = (message) => {
  console.error(`edge: ${message}`);
  process.exit(2);
};

if (command === "admin-key-sql") {
  const environment = option("environment");
  if (environment !== "sandbox" && environment !== "production") fail("--environment must be sandbox or production");
  const worker = await import(path.join(root, "build/worker/host_edge.js"));
  worker.initSync({ module: new WebAssembly.Module(readFileSync(path.join(root, "build/worker/host_edge_bg.wasm"))) });
  console.log(worker.adminKeySql(environment));
  process.exit(0);
}

const state = option("state") ?? fail("--state DIR is required");

// The [vars] of wrangler.toml (`NAME = "value"` lines), so that the test
// host runs with the settings a deployment has.
const wranglerVars = () => {
  const vars = {};
  let inVars = false;
  for (const line of readFileSync(path.join(root, "wrangler.toml"), "utf8").split("\n")) {
    const trimmed = line.trim();
    if (trimmed.startsWith("[")) inVars = trimmed === "[vars]";
    const m = inVars && trimmed.match(/^([A-Z0-9_]+)\s*=\s*"([^"]*)"$/);
    if (m) vars[m[1]] = m[2];
  }
  return vars;
};
const serving = command === "serve";

// The ids of wrangler.toml: wrangler dev keys local state by them.
const D1_ID = "00000000-0000-0000-0000-000000000000";
const KV_ID = "00000000000000000000000000000000";

const mf = new Miniflare({
  modules: true,
  scriptPath: path.join(root, "js/entry.mjs"),
  modulesRoot: root,
  modulesRules: [
    { type: "CompiledWasm", include: ["**/*.wasm"] },
    { type: "ESModule", include: ["**/*.js", "**/*.mjs"] },
  ],
  compatibilityDate: "2026-04-01",
  d1Databases: { DB: D1_ID, CONTRACT_DB: "store-contract" },
  kvNamespaces: { SNAPSHOTS: KV_ID },
  durableObjects: { RATE_LIMITER: "KeyRateLimiter", DISPATCHER: "Dispatcher" },
  ...(serving ? { host: "127.0.0.1", port: Number(option("port") ?? fail("--port PORT is required")) } : {}),
  bindings: {
    ...(serving ? wranglerVars() : {}),
    ...(serving ? { CGW_DISPATCH_IDLE_MS: process.env.CGW_DISPATCH_IDLE_MS ?? "5000", CGW_LIST_URLS: process.env.CGW_LIST_URLS ?? "" } : {}),
    CGW_LOCAL_TOOLS: serving && !rest.includes("--local-tools") ? "disabled" : "enabled",
    ...(existsSync(path.join(state, "secret.key")) ? { CGW_SECRET_KEY: readFileSync(path.join(state, "secret.key"), "utf8").trim() } : {}),
  },
  d1Persist: path.join(path.resolve(state), "v3/d1"),
  kvPersist: path.join(path.resolve(state), "v3/kv"),
  durableObjectsPersist: path.join(path.resolve(state), "v3/do"),
});

if (serving) {
  await mf.ready;
  const stop = async () => {
    await mf.dispose();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  await new Promise(() => {});
}

try {
  let response;
  switch (command) {
    case "admin-key": {
      const environment = option("environment");
      if (environment !== "sandbox" && environment !== "production") fail("--environment must be sandbox or production");
      response = await mf.dispatchFetch(`http://localhost/__local/admin-key?environment=${environment}`, { method: "POST" });
      const text = (await response.text()).trim();
      if (response.status !== 200) fail(`admin-key failed: ${text}`);
      console.log(text);
      break;
    }
    case "store-contract": {
      response = await mf.dispatchFetch("http://localhost/__local/store-contract", { method: "POST" });
      const report = await response.json();
      for (const c of report.cases) console.log(`test d1::${c.case} ... ${c.error === null ? "ok" : `FAILED: ${c.error}`}`);
      if (!report.passed) process.exitCode = 1;
      break;
    }
    default:
      fail(`unknown command ${command ?? ""}; use admin-key or store-contract`);
  }
} finally {
  await mf.dispose();
}
