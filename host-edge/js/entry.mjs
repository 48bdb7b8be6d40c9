// The Worker's entry: instantiates the jco-transpiled rules component and
// the Rust worker (wasm-bindgen), and hands requests, cron events and the
// Durable Object classes to the Rust side. Workers may not compile wasm at
// run time; both modules are imported precompiled.
import rulesCore from "../build/rules/cgw_rules.core.wasm";
import { instantiate } from "../build/rules/cgw_rules.js";
import workerWasm from "../build/worker/host_edge_bg.wasm";
import * as worker from "../build/worker/host_edge.js";

worker.initSync({ module: workerWasm });

let rules;
// Integers of the rules' inputs are s64, BigInts for jco, except those the
// Rust side marks as {"$f64": x} or {"$u32": x}; outputs go back as plain
// numbers (the store keeps integers within ±2^53).
const integersAsBigInt = (_key, value) => {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    if ("$f64" in value) return Number(value.$f64);
    if ("$u32" in value) return Number(value.$u32);
  }
  return typeof value === "number" && Number.isInteger(value) ? BigInt(value) : value;
};
const bigIntsAsNumbers = (_key, value) =>
  typeof value === "bigint" ? Number(value) : ArrayBuffer.isView(value) ? Array.from(value, Number) : value;

// Called by the Rust side (rules_js.rs): export `name` with the JSON array
// `args`; answers {"ok": value} or {"err": payload of a WIT result error},
// and throws on a trap, after which the next call gets a fresh instance.
globalThis.cgwRulesCall = (name, args) => {
  rules ??= instantiate(() => rulesCore, {}).decisions;
  const call = rules[name];
  if (typeof call !== "function") throw new Error(`the rules component has no export ${name}`);
  try {
    // jco answers a WIT option's none as undefined, which JSON.stringify would drop with its key
    return JSON.stringify({ ok: call(...JSON.parse(args, integersAsBigInt)) ?? null }, bigIntsAsNumbers);
  } catch (error) {
    // jco throws a WIT result's error as a ComponentError with its payload,
    // or (newer jco) as the bare value, an enum's case name; a trap is an Error
    if (error !== null && typeof error === "object" && "payload" in error) {
      return JSON.stringify({ err: error.payload }, bigIntsAsNumbers);
    }
    if (!(error instanceof Error)) {
      return JSON.stringify({ err: error }, bigIntsAsNumbers);
    }
    rules = undefined;
    throw error;
  }
};

export const KeyRateLimiter = worker.KeyRateLimiter;
export const Dispatcher = worker.Dispatcher;
export const Heartbeat = worker.Heartbeat;

// A request id as the core makes them (`req_` and 24 hex digits).
const requestId = () => `req_${Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

// What a request answers when the Worker itself fails (a trap, a panic, a
// response it could not build): the API's own 500 body with its request id,
// never the platform's error page.
export const internalError = (error) => {
  const request_id = requestId();
  console.error(`internal error ${request_id}: ${error instanceof Error ? error.message : String(error)}`);
  const body = { error: "internal_error", message: "an unexpected error occurred; retry later or contact support with the request id", request_id };
  return new Response(JSON.stringify(body), {
    status: 500,
    headers: { "content-type": "application/json", "x-request-id": request_id, "cache-control": "no-store" },
  });
};

export default {
  fetch: async (request, env, ctx) => {
    try {
      return await worker.fetch(request, env, ctx);
    } catch (error) {
      return internalError(error);
    }
  },
  scheduled: (event, env, ctx) => worker.scheduled(event, env, ctx),
};
