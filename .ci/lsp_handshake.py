"""Start `hiera-lsp` over stdio, send initialize / initialized / shutdown / exit, and check the
answers and the exit status: the server of a plain install starts and speaks LSP."""

from __future__ import annotations

import json
import subprocess
import sys


def send(stream, message: dict) -> None:
    body = json.dumps(message).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def receive(stream) -> dict:
    length = None
    while (line := stream.readline().strip()):
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    if length is None:
        raise SystemExit("hiera-lsp closed its output before answering")
    return json.loads(stream.read(length))


def answer(server, request_id: int) -> dict:
    """The response to `request_id`, skipping the server's notifications and requests."""
    while "id" not in (message := receive(server.stdout)) or message.get("method") or message["id"] != request_id:
        pass
    if "error" in message:
        raise SystemExit(f"hiera-lsp answered request {request_id} with an error: {message['error']}")
    return message


def main(command: list[str]) -> int:
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    info = answer(server, 1)["result"]
    send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    answer(server, 2)
    send(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
    code = server.wait(timeout=30)
    print(f"initialize answered by {info.get('serverInfo')}; exit status after shutdown {code}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["hiera-lsp"]))
