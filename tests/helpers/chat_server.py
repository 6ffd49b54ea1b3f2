"""A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, with scripted answers.

Each POST to /v1/chat/completions takes the next step of the script:
    Answer("text")                  200 with that assistant message (usage counted as chars / 4, or
                                    as `completion_tokens` says: a server that runs past max_tokens)
    Status(429, headers={...})      an OpenAI-style error body with that status
    Raw(b"<html>", status=200)      exactly that body (not a chat completion: HTML, bad JSON, ...)
    Hang()                          never answers (until the server stops)
    a callable(request_body) -> step, to decide from the prompt
When the script runs out, `then` (default: 500) answers every further request. Every request
is kept (`requests`: body, headers, time) so tests can read the prompts the model received.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Answer:
    text: str
    finish_reason: str = "stop"
    usage: bool = True
    delay_s: float = 0.0
    completion_tokens: int | None = None


@dataclass
class Raw:
    body: bytes
    status: int = 200
    content_type: str = "text/html"


@dataclass
class Status:
    status: int
    message: str = "scripted error"
    code: str | None = None
    headers: dict = field(default_factory=dict)


@dataclass
class Hang:
    pass


@dataclass
class Received:
    body: dict
    headers: dict
    time: float

    @property
    def messages(self) -> list[dict]:
        return self.body["messages"]

    @property
    def last_user(self) -> str:
        return [m for m in self.messages if m["role"] == "user"][-1]["content"]


class ChatServer:
    def __init__(self, script: list, then=None):
        self.script = list(script)
        self.then = then if then is not None else Status(500, "scripted: out of answers")
        self.requests: list[Received] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self._json(404, {"error": {"message": f"no route {self.path}"}})
                    return
                with server.lock:
                    server.requests.append(Received(body, dict(self.headers), time.monotonic()))
                    step = server.script.pop(0) if server.script else server.then
                if callable(step):
                    step = step(body)
                server.respond(self, step, body)

            def _json(self, status, payload, headers=None):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, str(value))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def respond(self, handler, step, body) -> None:
        if isinstance(step, Hang):
            self.stopping.wait()
            return
        if isinstance(step, Raw):
            handler.send_response(step.status)
            handler.send_header("Content-Type", step.content_type)
            handler.send_header("Content-Length", str(len(step.body)))
            handler.end_headers()
            handler.wfile.write(step.body)
            return
        if isinstance(step, Status):
            error = {"message": step.message, "type": "scripted", "code": step.code}
            handler._json(step.status, {"error": error}, step.headers)
            return
        time.sleep(step.delay_s)
        prompt = max(1, sum(len(m["content"]) for m in body["messages"]) // 4)
        payload = {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
                   "model": body["model"],
                   "choices": [{"index": 0, "finish_reason": step.finish_reason,
                                "message": {"role": "assistant", "content": step.text}}]}
        if step.usage:
            completion = step.completion_tokens or max(1, len(step.text) // 4)
            payload["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                                "total_tokens": prompt + completion}
        handler._json(200, payload)

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def python_answer(code: str, prose: str = "Here is the module.") -> str:
    return f"{prose}\n\n```python\n{code.strip()}\n```\n"


def plan_answer(space: str = "pytorch", strategy: str = "fold the elementwise chain", fenced: bool = True) -> str:
    text = json.dumps({"space": space, "strategy": strategy, "reason": "scripted choice"})
    return f"My choice:\n```json\n{text}\n```" if fenced else text
