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
    return JSON.stringify({ ok: call(...JSON.parse(args, integersAsBigInt)) }, bigIntsAsNumbers);
  } catch (error) {
    if (error !== null && typeof error === "object" && "payload" in error) {
      return JSON.stringify({ err: error.payload }, bigIntsAsNumbers);
    }
    rules = undefined;
    throw error;
  }
};

export const KeyRateLimiter = worker.KeyRateLimiter;
export const Dispatcher = worker.Dispatcher;
export const Heartbeat = worker.Heartbeat;

export default {
  fetch: (request, env, ctx) => worker.fetch(request, env, ctx),
  scheduled: (event, env, ctx) => worker.scheduled(event, env, ctx),
};
