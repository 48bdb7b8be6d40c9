#!/usr/bin/env python3
"""Load generator of `scripts/bench-lockout.sh` (issue #48): a stranger attack
on one console account from many loopback sources, while the owner signs in
from a known device, and, as its twin, from a new device.

Standard library only. Every connection stays on loopback: each attacker
source is a client socket bound to its own 127.x.y.z address before it
connects, so the server (configured with no trusted proxy header) sees that
address as the TCP peer and counts it as its own source.

Phases, all in one run against one server:
  setup     the first sign-in with the one-time password (no device token:
            it answers the device's token), the password change, and one
            sign-in with the new password and the token;
  baseline  --baseline-minutes without attack: the owner's sign-ins only;
  attack    --minutes of wrong-password sign-ins for the owner's address from
            --sources addresses (round robin), --concurrency in flight, at
            --rate a second (0: as fast as the server answers), while the
            owner's sign-ins go on.

The owner signs in twice a 30-second TOTP step, 15 s apart: from the known
device (device token, right password and code, one fixed address) 3 s into
the step, and from a new device (no token, right password and code, a fresh
address each time) 18 s into it. A TOTP code is good once per account, so at
most one of the owner's sign-ins a step can succeed: the known device sends
its step's code, the new device the next step's (which the server takes
within its one step of skew). Before the attack, where the new device gets
in and so uses a code, it signs in every other step only, and the known
device sits out a step whose code the new device took (a `skipped` slot).
"""

import argparse
import base64
import hashlib
import hmac
import http.client
import json
import math
import os
import sqlite3
import struct
import sys
import threading
import time

TOTP_STEP = 30


def totp(secret_b32, step):
    key = base64.b32decode(secret_b32.upper() + "=" * (-len(secret_b32) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return "%06d" % (value % 1_000_000)


class Target:
    def __init__(self, host, port, timeout):
        self.host, self.port, self.timeout = host, port, timeout

    def request(self, method, path, body, source, bearer=None):
        """(status, parsed body or raw text, seconds); status 0 on a transport error."""
        headers = {"content-type": "application/json", "connection": "close"}
        if bearer:
            headers["authorization"] = "Bearer " + bearer
        data = json.dumps(body).encode() if body is not None else None
        started = time.monotonic()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout, source_address=(source, 0))
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as e:
            return 0, "%s: %s" % (type(e).__name__, e), time.monotonic() - started
        finally:
            conn.close()
        elapsed = time.monotonic() - started
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        return status, parsed, elapsed


def error_code(parsed):
    return parsed.get("error", "?") if isinstance(parsed, dict) else "?"


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    # nearest rank
    rank = max(0, min(len(ordered) - 1, math.ceil(p / 100.0 * len(ordered)) - 1))
    return ordered[rank]


def cpu_seconds(pid):
    """utime + stime of a process, in seconds (Linux /proc)."""
    if not pid:
        return None
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Codes:
    """The owner's TOTP codes: the account takes each step's code once."""

    def __init__(self, secret):
        self.secret, self.last = secret, 0
        self.lock = threading.Lock()

    def take(self, step):
        """The code of `step`, or None when a sign-in used it (or a later one)."""
        with self.lock:
            return totp(self.secret, step) if step > self.last else None

    def used(self, step):
        with self.lock:
            self.last = max(self.last, step)


class Attack:
    def __init__(self, target, email, sources, concurrency, rate, phase_end):
        self.target, self.email, self.sources = target, email, sources
        self.concurrency, self.rate, self.phase_end = concurrency, rate, phase_end
        self.lock = threading.Lock()
        self.sent = 0
        self.statuses = {}
        self.latencies = []
        self.transport_errors = {}
        self.unexpected = []
        self.per_minute = {}
        self.started = None

    def run(self):
        self.started = time.monotonic()
        threads = [threading.Thread(target=self.worker, daemon=True) for _ in range(self.concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def next_attempt(self):
        with self.lock:
            n = self.sent
            self.sent += 1
        return n

    def worker(self):
        while True:
            n = self.next_attempt()
            if self.rate > 0:
                due = self.started + n / self.rate
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            if time.monotonic() >= self.phase_end:
                with self.lock:
                    self.sent -= 1
                return
            source = self.sources[n % len(self.sources)]
            body = {"environment": "production", "email": self.email, "password": "not the password %d" % n, "totp": "%06d" % (n % 1_000_000)}
            status, parsed, elapsed = self.target.request("POST", "/v1/admin/sessions", body, source)
            minute = int((time.monotonic() - self.started) // 60)
            with self.lock:
                key = "%d %s" % (status, error_code(parsed)) if status else "transport error"
                self.statuses[key] = self.statuses.get(key, 0) + 1
                self.per_minute[minute] = self.per_minute.get(minute, 0) + 1
                if status:
                    self.latencies.append(elapsed)
                else:
                    self.transport_errors[parsed] = self.transport_errors.get(parsed, 0) + 1
                if status not in (401, 0) and len(self.unexpected) < 20:
                    self.unexpected.append({"n": n, "source": source, "status": status, "body": parsed})


class Owner:
    """The owner's sign-ins, in slots anchored to the TOTP steps: the known
    device 3 s into each step, with that step's code; the new device 18 s
    into it, with the next step's code (good from then on, and not yet used).
    One sign-in a step can succeed, so before the attack, where the new
    device gets in, it signs in only in even steps, and the known device sits
    out the step whose code the new device took (a `skipped` slot)."""

    def __init__(self, target, email, password, codes, device_token, known_source, new_prefix, t0):
        self.target, self.email, self.password, self.codes = target, email, password, codes
        self.device_token = device_token
        self.known_source, self.new_prefix, self.t0 = known_source, new_prefix, t0
        self.attempts = []
        self.skipped = {"known": {"baseline": 0, "attack": 0}, "new": {"baseline": 0, "attack": 0}}
        self.new_count = 0
        self.stop = threading.Event()
        self.attack_started = None  # monotonic, set by main

    def phase(self):
        return "attack" if self.attack_started is not None else "baseline"

    def run(self, end):
        step = max(int(time.time()) // TOTP_STEP, self.codes.last + 1)
        while True:
            for kind, offset in (("known", 3.0), ("new", 18.0)):
                wait = step * TOTP_STEP + offset - time.time()
                if wait > 0 and self.stop.wait(wait):
                    return
                if time.monotonic() >= end or self.stop.is_set():
                    return
                phase = self.phase()
                if kind == "new" and phase == "baseline" and step % 2:
                    continue
                code_step = step if kind == "known" else step + 1
                code = self.codes.take(code_step)
                if code is None:
                    self.skipped[kind][phase] += 1
                    continue
                self.sign_in(kind, phase, code_step, code)
            step += 1

    def sign_in(self, kind, phase, step, code):
        body = {"environment": "production", "email": self.email, "password": self.password, "totp": code}
        if kind == "known":
            body["device_token"] = self.device_token
            source = self.known_source
        else:
            self.new_count += 1
            source = "%s.%d.%d" % (self.new_prefix, self.new_count // 250, self.new_count % 250 + 1)
        at = time.monotonic()
        status, parsed, elapsed = self.target.request("POST", "/v1/admin/sessions", body, source)
        if status == 201:
            self.codes.used(step)
        record = {
            "kind": kind,
            "phase": phase,
            "t": round(at - self.t0, 2),
            "t_attack": round(at - self.attack_started, 2) if self.attack_started is not None else None,
            "unix": round(time.time(), 2),
            "source": source,
            "status": status,
            "latency_ms": round(elapsed * 1000, 1),
            "totp_step": step,
        }
        if status != 201:
            record["body"] = parsed
        elif kind == "known":
            record["same_token"] = isinstance(parsed, dict) and parsed.get("device_token") == self.device_token
        self.attempts.append(record)


def setup(target, email, one_time, new_password, codes, source):
    """The first sign-in, the password change, a sign-in with the token: the device token."""
    # the previous step's code (good for 30 s more at least), then the current one's
    step = int(time.time()) // TOTP_STEP - 1
    body = {"environment": "production", "email": email, "password": one_time, "totp": codes.take(step)}
    status, first, _ = target.request("POST", "/v1/admin/sessions", body, source)
    if status != 201:
        sys.exit("setup: the first sign-in answered %s %s" % (status, first))
    codes.used(step)
    device = first["device_token"]
    if not first.get("must_change_password"):
        sys.exit("setup: the first sign-in did not ask for a password change: %s" % first)
    status, changed, _ = target.request(
        "POST", "/v1/admin/people/me/password", {"password": one_time, "new_password": new_password}, source, bearer=first["session_token"]
    )
    if status != 200 or changed.get("must_change_password") is not False:
        sys.exit("setup: the password change answered %s %s" % (status, changed))
    step += 1
    body = {"environment": "production", "email": email, "password": new_password, "totp": codes.take(step), "device_token": device}
    status, again, _ = target.request("POST", "/v1/admin/sessions", body, source)
    if status != 201 or again.get("device_token") != device or again.get("must_change_password"):
        sys.exit("setup: the sign-in with the new password and the token answered %s %s" % (status, again))
    codes.used(step)
    return device


def stranger_baseline(target, email, source, count):
    """Wrong-password sign-ins one at a time, with no load: the cost of one check."""
    out = []
    for g in range(count):
        body = {"environment": "production", "email": email, "password": "baseline guess %d" % g, "totp": "000000"}
        status, parsed, elapsed = target.request("POST", "/v1/admin/sessions", body, source)
        out.append({"status": status, "error": error_code(parsed), "latency_ms": round(elapsed * 1000, 1)})
    return out


def summarize_owner(attempts, skipped, kind, phase):
    rows = [a for a in attempts if a["kind"] == kind and a["phase"] == phase]
    ok = [a for a in rows if a["status"] == 201]
    lat = [a["latency_ms"] for a in rows if a["status"]]
    statuses = {}
    for a in rows:
        key = "%s %s" % (a["status"], error_code(a.get("body"))) if a["status"] != 201 else "201"
        statuses[key] = statuses.get(key, 0) + 1
    return {
        "attempts": len(rows),
        "successes": len(ok),
        "statuses": statuses,
        "p50_ms": percentile(lat, 50),
        "p99_ms": percentile(lat, 99),
        "max_ms": max(lat) if lat else None,
        "skipped": skipped[kind][phase],
    }


def audit_counts(database):
    if not database or not os.path.exists(database):
        return {}
    try:
        db = sqlite3.connect("file:%s?mode=ro" % database, uri=True, timeout=10)
        rows = db.execute(
            "SELECT action, COUNT(*), MIN(at), MAX(at) FROM audit_log WHERE action IN "
            "('console.sign_in', 'console_user.locked', 'console_user.password_change', 'console_user.create') GROUP BY action"
        ).fetchall()
        devices = db.execute("SELECT COUNT(*) FROM console_devices").fetchone()[0]
        db.close()
    except sqlite3.Error as e:
        return {"error": str(e)}
    out = {action: {"rows": n, "first_unix": lo, "last_unix": hi} for action, n, lo, hi in rows}
    out["console_devices"] = devices
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--account", required=True, help="the JSON `console-user create` printed")
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--baseline-minutes", type=float, default=2)
    p.add_argument("--sources", type=int, default=1000)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--rate", type=float, default=0, help="attacker attempts a second; 0: as fast as the server answers")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--server-pid", type=int)
    p.add_argument("--database", help="the SQLite file, read after the run for its audit rows")
    p.add_argument("--out", help="write every figure as JSON here")
    args = p.parse_args()

    account = json.loads(args.account)
    email, secret = account["email"], account["totp_secret"]
    new_password = "violet harbour kettle " + base64.b32encode(os.urandom(10)).decode().lower()
    target = Target(args.host, args.port, args.timeout)
    codes = Codes(secret)
    # 127.10.0.1 .. : the strangers; 127.20.0.1: the owner's known device;
    # 127.30.x.y: a new device each time; 127.40.0.1: a lone stranger before the attack
    sources = ["127.10.%d.%d" % (i // 200, i % 200 + 1) for i in range(args.sources)]
    known_source, new_prefix, lone_stranger = "127.20.0.1", "127.30", "127.40.0.1"

    device = setup(target, email, account["password"], new_password, codes, known_source)
    print("setup: signed in, changed the one-time password, signed in again with the device token", flush=True)

    lone = stranger_baseline(target, email, lone_stranger, 4)
    # the baseline starts with the owner's first TOTP step
    time.sleep(max(0.0, (codes.last + 1) * TOTP_STEP - time.time()))
    t0 = time.monotonic()
    baseline_end = t0 + args.baseline_minutes * 60
    end = baseline_end + args.minutes * 60
    owner = Owner(target, email, new_password, codes, device, known_source, new_prefix, t0)
    owner_thread = threading.Thread(target=owner.run, args=(end,), daemon=True)
    owner_thread.start()
    print("baseline: %.1f min of the owner's sign-ins without attack" % args.baseline_minutes, flush=True)
    cpu_before = cpu_seconds(args.server_pid)
    wait = baseline_end - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    cpu_baseline = cpu_seconds(args.server_pid)
    attack = Attack(target, email, sources, args.concurrency, args.rate, end)
    owner.attack_started = time.monotonic()
    attack_unix = time.time()
    print("attack: %.1f min from %d sources, %d in flight, rate %s" % (args.minutes, args.sources, args.concurrency, args.rate or "unbounded"), flush=True)
    attack.run()
    attack_seconds = time.monotonic() - owner.attack_started
    cpu_after = cpu_seconds(args.server_pid)
    owner.stop.set()
    owner_thread.join(timeout=args.timeout + 5)

    alat = [x * 1000 for x in attack.latencies]
    sources_used = min(attack.sent, len(sources))
    result = {
        "attack_started_unix": round(attack_unix, 1),
        "attack_seconds": round(attack_seconds, 1),
        "attackers": {
            "sources": len(sources),
            "sources_used": sources_used,
            "attempts_per_source": round(attack.sent / len(sources), 1),
            "concurrency": args.concurrency,
            "target_rate": args.rate,
            "sent": attack.sent,
            "per_second": round(attack.sent / attack_seconds, 1) if attack_seconds else None,
            "per_minute": [attack.per_minute.get(m, 0) for m in sorted(attack.per_minute)],
            "statuses": attack.statuses,
            "transport_errors": attack.transport_errors,
            "unexpected": attack.unexpected,
            "p50_ms": percentile(alat, 50),
            "p99_ms": percentile(alat, 99),
        },
        "lone_stranger_before_attack": lone,
        "owner": {
            "known_baseline": summarize_owner(owner.attempts, owner.skipped, "known", "baseline"),
            "known_attack": summarize_owner(owner.attempts, owner.skipped, "known", "attack"),
            "new_baseline": summarize_owner(owner.attempts, owner.skipped, "new", "baseline"),
            "new_attack": summarize_owner(owner.attempts, owner.skipped, "new", "attack"),
            "attempts": owner.attempts,
        },
        "server_cpu": {
            "baseline_seconds": round(cpu_baseline - cpu_before, 2) if cpu_before is not None and cpu_baseline is not None else None,
            "attack_seconds": round(cpu_after - cpu_baseline, 2) if cpu_after is not None and cpu_baseline is not None else None,
            "attack_cores": round((cpu_after - cpu_baseline) / attack_seconds, 2) if cpu_after is not None and cpu_baseline is not None else None,
            "attack_ms_per_attempt": round((cpu_after - cpu_baseline) * 1000 / max(attack.sent, 1), 1)
            if cpu_after is not None and cpu_baseline is not None
            else None,
        },
        "audit": audit_counts(args.database),
    }
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    print_summary(result)
    known = result["owner"]["known_attack"]
    failed = known["attempts"] == 0 or known["successes"] != known["attempts"]
    sys.exit(1 if failed else 0)


def fmt(value):
    return "-" if value is None else ("%.1f" % value if isinstance(value, float) else str(value))


def print_summary(r):
    a, o, cpu = r["attackers"], r["owner"], r["server_cpu"]
    print()
    print("== lockout bench: %.0f s of attack ==" % r["attack_seconds"])
    print("attackers: %d sent from %d sources (%.1f each), %d in flight, %.1f/s; p50 %s ms, p99 %s ms"
          % (a["sent"], a["sources_used"], a["attempts_per_source"], a["concurrency"], a["per_second"], fmt(a["p50_ms"]), fmt(a["p99_ms"])))
    print("  statuses: %s" % json.dumps(a["statuses"], sort_keys=True))
    print("  per minute: %s" % a["per_minute"])
    if a["transport_errors"]:
        print("  transport errors: %s" % json.dumps(a["transport_errors"]))
    if a["unexpected"]:
        print("  unexpected answers: %s" % json.dumps(a["unexpected"][:5]))
    lone = r["lone_stranger_before_attack"]
    print("lone stranger before the attack: %s" % ", ".join("%s %s ms" % (x["status"], x["latency_ms"]) for x in lone))
    print("%-22s %8s %9s %8s %8s %8s  %s" % ("owner", "attempts", "successes", "p50 ms", "p99 ms", "max ms", "statuses"))
    for key, label in (("known_baseline", "known device, no attack"), ("known_attack", "known device, attack"),
                       ("new_baseline", "new device, no attack"), ("new_attack", "new device, attack")):
        s = o[key]
        print("%-22s %8d %9d %8s %8s %8s  %s%s" % (label[:22], s["attempts"], s["successes"], fmt(s["p50_ms"]), fmt(s["p99_ms"]), fmt(s["max_ms"]),
                                                 json.dumps(s["statuses"], sort_keys=True),
                                                 " (%d slots skipped: the code was used)" % s["skipped"] if s["skipped"] else ""))
    for x in o["attempts"]:
        if x["kind"] == "known" and x["status"] != 201:
            print("  known device refused at t=%ss: %s %s" % (x["t"], x["status"], json.dumps(x.get("body"))))
        if x["kind"] == "new" and x["phase"] == "attack" and x["status"] == 201:
            print("  new device signed in during the attack at +%ss (unix %s)" % (x["t_attack"], x["unix"]))
    print("server CPU: %s s in the baseline, %s s in the attack (%s cores, %s ms an attempt)"
          % (fmt(cpu["baseline_seconds"]), fmt(cpu["attack_seconds"]), fmt(cpu["attack_cores"]), fmt(cpu["attack_ms_per_attempt"])))
    if r["audit"]:
        print("audit: %s" % json.dumps(r["audit"], sort_keys=True))


if __name__ == "__main__":
    main()
