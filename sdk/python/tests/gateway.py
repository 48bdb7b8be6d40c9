"""The native host on loopback for the tests: target/release/compliance-gateway
(or $CGW_BINARY) on a free port with a fresh SQLite store, and a webhook receiver."""

from __future__ import annotations

import http.server
import os
import pathlib
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gateway:
    """A running gateway: ``base_url`` and a sandbox ``admin_key``."""

    def __init__(self) -> None:
        binary = os.environ.get("CGW_BINARY") or str(ROOT / "target/release/compliance-gateway")
        self.dir = tempfile.TemporaryDirectory()
        database = f"sqlite://{self.dir.name}/gateway.db"
        self.admin_key = subprocess.run(
            [binary, "admin-key", "create", "--environment", "sandbox", "--database", database],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
        port = free_port()
        self.base_url = f"http://127.0.0.1:{port}"
        self.log = open(f"{self.dir.name}/server.log", "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{port}", "--database", database],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.base_url}/v1/health", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"the gateway did not start: {open(f'{self.dir.name}/server.log').read()}")
                time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()
        self.dir.cleanup()


class Receiver:
    """A webhook endpoint on loopback that records each delivery (headers, raw body) and answers 200."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.arrived = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the library's name)
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()
                with receiver.arrived:
                    receiver.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                    receiver.arrived.notify_all()

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, event_name: str, timeout: float = 30) -> tuple[dict[str, str], bytes]:
        """The first delivery whose body names ``event_name``."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                for headers, body in self.received:
                    if f'"event":"{event_name}"'.encode() in body:
                        return headers, body
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {event_name} delivery within {timeout} s; got {len(self.received)}")
                self.arrived.wait(left)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Stub:
    """A loopback server that answers from a script of (status, headers) and records each request,
    for what the gateway cannot be made to answer on demand (a 503 with Retry-After)."""

    def __init__(self, script: list[tuple[int, dict[str, str]]]) -> None:
        self.requests: list[tuple[str, dict[str, str]]] = []
        #: the path (and query) of each request, in the order of ``requests``
        self.paths: list[str] = []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                if length:
                    self.rfile.read(length)
                stub.paths.append(self.path)
                stub.requests.append((self.command, {k.lower(): v for k, v in self.headers.items()}))
                status, headers = script[min(len(stub.requests), len(script)) - 1]
                body = b'{"ok":true}' if status < 400 else b'{"error":"rate_limited","message":"slow down","request_id":"req_stub"}'
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = answer

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
