// The `--simulate SPEC` of `scripts/edge.sh serve --measure` (issue #30):
// a comma-separated list of `d1_primary=MS`, `d1_replica=MS`,
// `durable_object=MS`, `kv=MS` and `replica_lag=MS|never`. Each delay is
// added to every trip of that kind; `replica_lag` is how long after a
// committed primary batch the simulated replica applies it (`never`: it
// never does, a frozen replica). Shared by the launcher (local.mjs, which
// refuses a SPEC that does not read) and the measuring entry (measure.mjs).
export const TRIP_KINDS = ["d1_primary", "d1_replica", "durable_object", "kv"];

// Parses SPEC into {delays: {kind: ms}, replicaLagMs: number|null}, where
// null is `never`; throws an Error naming what does not read.
export function parseSimulate(spec) {
  const delays = Object.fromEntries(TRIP_KINDS.map((k) => [k, 0]));
  let replicaLagMs = 0;
  for (const part of (spec ?? "").split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    const [name, value] = eq < 0 ? [part, ""] : [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    if (name === "replica_lag" && value === "never") {
      replicaLagMs = null;
      continue;
    }
    if (!/^\d{1,7}$/.test(value)) throw new Error(`--simulate: ${part} is not NAME=MS (whole milliseconds)`);
    if (name === "replica_lag") replicaLagMs = Number(value);
    else if (TRIP_KINDS.includes(name)) delays[name] = Number(value);
    else throw new Error(`--simulate: unknown ${name}; use ${[...TRIP_KINDS, "replica_lag"].join(", ")}`);
  }
  return { delays, replicaLagMs };
}
