"""The chat client through the real `openai` package against a real scripted HTTP server."""

import socket
import time

import pytest
from helpers.chat_server import Answer, ChatServer, Hang, Raw, Status
from helpers.llm import config_for

from hiera_core.llm.client import ChatClient, ContextTooLong, ModelUnavailable, RequestFailed

MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello there, model"}]
KEY = "sk-test-not-a-real-key-0042"


def client_for(server: ChatServer, **overrides) -> ChatClient:
    return ChatClient(config_for(server.url, **overrides), backoff_s=0.01)


def test_an_answer_with_usage_and_the_key_sent_as_bearer():
    with ChatServer([Answer("hi", usage=True)]) as server:
        reply = client_for(server).complete("scripted", MESSAGES, 64)
    assert (reply.text, reply.finish_reason, reply.attempts, reply.retries) == ("hi", "stop", 1, [])
    assert not reply.tokens_estimated and reply.prompt_tokens == len("be briefhello there, model") // 4
    request = server.requests[0]
    assert request.body["model"] == "scripted" and request.body["messages"] == MESSAGES
    assert request.body["max_tokens"] == 64 and "n" not in request.body
    assert {k.lower(): v for k, v in request.headers.items()}["authorization"] == f"Bearer {KEY}"


def test_tokens_are_estimated_when_the_server_sends_no_usage():
    with ChatServer([Answer("x" * 400, usage=False)]) as server:
        reply = client_for(server).complete("scripted", MESSAGES, 256)
    assert reply.tokens_estimated and reply.completion_tokens == 100


def test_429_then_success_retries_after_the_servers_delay():
    with ChatServer([Status(429, "slow down", headers={"retry-after-ms": "200"}), Answer("done")]) as server:
        started = time.monotonic()
        reply = client_for(server).complete("scripted", MESSAGES, 64)
    assert reply.text == "done" and reply.attempts == 2
    assert reply.retries == ["attempt 1: HTTP 429: slow down; retrying in 0.2 s"]
    assert time.monotonic() - started >= 0.2
    assert len(server.requests) == 2


def test_5xx_until_retries_are_exhausted_fails_the_request():
    with ChatServer([], then=Status(503, "overloaded")) as server:
        with pytest.raises(RequestFailed) as caught:
            client_for(server, max_retries=2).complete("scripted", MESSAGES, 64)
    assert caught.value.reason == "HTTP 503: overloaded (gave up after 3 attempts)"
    assert caught.value.attempts == 3 and len(caught.value.retries) == 2 and len(server.requests) == 3


def test_401_is_one_line_without_the_key():
    with ChatServer([Status(401, f"Incorrect API key provided: {KEY}")]) as server:
        with pytest.raises(ModelUnavailable) as caught:
            client_for(server).complete("scripted", MESSAGES, 64)
    text = str(caught.value)
    assert text == f"{server.url} rejected the API key (401): set OPENAI_API_KEY to a valid key for this endpoint"
    assert KEY not in text and "\n" not in text and caught.value.kind == "llm-auth"
    assert len(server.requests) == 1  # never retried


def test_404_names_the_model():
    with ChatServer([Status(404, "The model `gpt-9` does not exist", code="model_not_found")]) as server:
        with pytest.raises(ModelUnavailable, match=r"^model 'gpt-9' not found at http://127\.0\.0\.1:\d+/v1 \(404\)"):
            client_for(server).complete("gpt-9", MESSAGES, 64)


def test_context_too_long_is_its_own_failure():
    message = "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens."
    with ChatServer([Status(400, message, code="context_length_exceeded")]) as server:
        with pytest.raises(ContextTooLong, match="does not fit scripted's context window"):
            client_for(server).complete("scripted", MESSAGES, 64)


def test_other_400s_stop_the_model_with_the_servers_reason():
    with ChatServer([Status(400, "temperature is not supported")]) as server:
        with pytest.raises(ModelUnavailable, match=r"refused the request for scripted \(400\): temperature is not"):
            client_for(server).complete("scripted", MESSAGES, 64)


def test_max_completion_tokens_when_the_server_refuses_max_tokens():
    refusal = Status(400, "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens' instead.")
    with ChatServer([refusal, Answer("ok"), Answer("again")]) as server:
        client = client_for(server)
        assert client.complete("scripted", MESSAGES, 64).text == "ok"
        assert client.complete("scripted", MESSAGES, 64).text == "again"
    bodies = [request.body for request in server.requests]
    assert "max_tokens" in bodies[0] and bodies[1]["max_completion_tokens"] == 64 and "max_tokens" not in bodies[2]


def test_a_server_that_never_answers_times_out():
    with ChatServer([Hang(), Hang()]) as server:
        started = time.monotonic()
        with pytest.raises(RequestFailed) as caught:
            client_for(server, request_timeout_s=0.5, max_retries=1).complete("scripted", MESSAGES, 64)
    assert caught.value.reason == "no answer within 0.5 s (gave up after 2 attempts)"
    assert caught.value.attempts == 2 and time.monotonic() - started < 5


def test_a_retry_never_runs_past_the_deadline():
    with ChatServer([Status(429, headers={"retry-after": "20"})]) as server:
        with pytest.raises(RequestFailed, match="no time left to retry"):
            client_for(server).complete("scripted", MESSAGES, 64, deadline=time.monotonic() + 3)
    assert len(server.requests) == 1


def test_connection_refused_is_one_line():
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = ChatClient(config_for(f"http://127.0.0.1:{port}/v1"), backoff_s=0.01)
    with pytest.raises(ModelUnavailable) as caught:
        client.complete("scripted", MESSAGES, 64)
    assert str(caught.value) == (f"cannot connect to http://127.0.0.1:{port}/v1: connection refused (is the server "
                                 "running, and is the base URL right?)")


def test_an_empty_answer_fails_the_request():
    with ChatServer([Answer("   ")]) as server:
        with pytest.raises(RequestFailed, match="empty answer"):
            client_for(server).complete("scripted", MESSAGES, 64)


@pytest.mark.parametrize("body, content_type", [
    (b"<html><body>502 Bad Gateway</body></html>", "text/html"),  # a proxy's page, with status 200
    (b'{"choices": [{"message": {"content": "half', "application/json"),  # cut short
    (b'{"object": "list", "data": []}', "application/json"),  # JSON, but not a chat completion
    (b'"just a string"', "application/json"),
])
def test_a_200_that_is_not_a_chat_completion_is_a_lost_request(body, content_type):
    # Before: AttributeError: 'str' object has no attribute 'choices' (a traceback out of `hiera plan`).
    with ChatServer([Raw(body, content_type=content_type)]) as server:
        with pytest.raises(RequestFailed, match="the server's answer is not a chat completion"):
            client_for(server).complete("scripted", MESSAGES, 64)


def test_an_answer_over_max_tokens_is_cut_and_counted_as_max_tokens():
    # A server that ignores max_tokens: 120 000 characters it says are 30 000 tokens, for 8192 asked.
    with ChatServer([Answer("y" * 120_000, completion_tokens=30_000)]) as server:
        reply = client_for(server).complete("scripted", MESSAGES, 8192)
    assert (reply.completion_tokens, reply.finish_reason, len(reply.text)) == (8192, "length", 4 * 8192)
    assert reply.note.startswith("the answer (30000 tokens, 120000 characters) was over max-answer-tokens 8192")


def test_a_huge_answer_is_refused_unread():
    # Before: a 5 MB answer was accepted whole and counted as 1.31M tokens against a 400k budget.
    with ChatServer([Answer("z" * 5_000_000)]) as server:
        with pytest.raises(RequestFailed, match=r"larger than \d+ bytes, more than max-answer-tokens \(8192\)"):
            client_for(server).complete("scripted", MESSAGES, 8192)


def test_the_circuit_breaker_drops_the_endpoint_after_requests_lost_in_a_row():
    with ChatServer([Answer("fine"), Status(500), Status(500), Answer("fine"), Status(500), Status(500),
                     Status(500)], then=Answer("fine")) as server:
        client = client_for(server, max_retries=0)
        outcomes = []
        for _ in range(8):
            try:
                outcomes.append(client.complete("scripted", MESSAGES, 64).text)
            except ModelUnavailable as error:
                outcomes.append(error.kind)
            except RequestFailed:
                outcomes.append("lost")
    # An answer between failures resets the count; the third in a row drops the endpoint for good.
    assert outcomes == ["fine", "lost", "lost", "fine", "lost", "lost", "llm-dropped", "llm-dropped"]
    assert len(server.requests) == 7  # once dropped, the endpoint is not asked again
