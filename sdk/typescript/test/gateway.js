// The native host on loopback for the tests: target/release/compliance-gateway
// (or $CGW_BINARY) on a free port with a fresh SQLite store, a webhook
// receiver, and a scripted stub for the answers the gateway cannot be made to give.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export async function startGateway() {
  const binary = process.env.CGW_BINARY || path.join(root, "target/release/compliance-gateway");
  const dir = mkdtempSync(path.join(tmpdir(), "cgw-sdk-ts-"));
  const database = `sqlite://${dir}/gateway.db`;
  const adminKey = execFileSync(binary, ["admin-key", "create", "--environment", "sandbox", "--database", database], { encoding: "utf8" }).trim();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ["serve", "--listen", `127.0.0.1:${port}`, "--database", database], { stdio: "ignore" });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/v1/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("the gateway did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    adminKey,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A webhook endpoint on loopback that records each delivery (headers, raw body) and answers 200. */
export async function startReceiver() {
  const received = [];
  const waiters = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    async waitFor(eventName, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((d) => d.body.includes(`"event":"${eventName}"`));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${eventName} delivery within ${timeoutMs} ms; got ${received.length}`);
        await new Promise((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    stop: () => new Promise((r) => server.close(r)),
  };
}

/** A loopback server answering from a script of [status, headers], recording each request. */
export async function startStub(script) {
  const requests = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers });
      const [status, headers] = script[Math.min(requests.length, script.length) - 1];
      const body = status < 400 ? '{"ok":true}' : '{"error":"rate_limited","message":"slow down","request_id":"req_stub"}';
      res.writeHead(status, { ...headers, "content-type": "application/json" }).end(body);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    requests,
    stop: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  };
}
