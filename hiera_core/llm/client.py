"""Chat completions through the `openai` package, against any OpenAI-compatible endpoint.

Retries are ours, not the library's (the client is built with max_retries=0): that way every
attempt and why it was retried lands in the run record, and backoff respects the run's deadline.
Retried: 429, 408, 409, 5xx, timeouts, dropped connections; exponential backoff with jitter,
or the server's Retry-After when it gives one.

Two outcomes besides an answer:
- `RequestFailed`: this request is lost (retries exhausted, context too long, empty answer, a body
  that is not a chat completion, an answer over its size limit); the sample that asked for it
  fails with the reason, and the run goes on.
- `ModelUnavailable` (a HieraError): the endpoint cannot serve this run at all (401/403, 404,
  connection refused, a request the server refuses outright, or BREAKER_FAILURES requests lost in
  a row: the circuit breaker, after which every call fails at once); one line says why, and the
  run continues without the model.
The API key never appears in either message.

With an `AnswerCache`, a prompt answered in an earlier run (same model, endpoint, messages,
temperature, max-answer-tokens) is answered from the store: no request, a `Reply` with
`cached=True` and no tokens spent; every answer that arrives is stored.

What an answer may cost is bounded here, whatever the server does: the body is read up to
MAX_BODY_BYTES_PER_TOKEN x max_tokens (a larger one is refused unread), and an answer longer than
max_tokens (as the server counts it, or by its length) is cut to max_tokens and counted as that.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hiera_core.errors import ErrorKind, HieraError
from hiera_core.llm.config import LLMConfig

RETRY_STATUSES = {408, 409, 429}
MAX_BACKOFF_S = 30.0
BREAKER_FAILURES = 3  # requests lost in a row (each after its retries) before the endpoint is dropped
# The body of a chat completion holding max_tokens tokens: ~4 characters a token, up to 6 bytes a
# character in JSON (\uXXXX), plus the envelope.
MAX_BODY_BYTES_PER_TOKEN = 32
BODY_ENVELOPE_BYTES = 64 * 1024
CHARS_PER_TOKEN = 4
MAX_CHARS_PER_TOKEN = 8  # longer than this for its token count: the server's count is not believed
_CONTEXT_PATTERNS = re.compile(r"context[ _]length|context window|maximum context|context size|too many tokens|"
                               r"prompt is too long|reduce the length", re.IGNORECASE)


class RequestFailed(Exception):
    """One request failed for good; `reason` is one line for the record and the feedback."""

    def __init__(self, reason: str, attempts: int, retries: list[str] | None = None):
        super().__init__(reason)
        self.reason = reason
        self.attempts = attempts
        self.retries = retries or []


class ContextTooLong(RequestFailed):
    """The prompt does not fit the model's context window."""


class ModelUnavailable(HieraError):
    """The endpoint cannot serve this run (bad key, unknown model, nothing listening)."""


@dataclass
class Reply:
    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    tokens_estimated: bool  # the server sent no usage: ~4 characters per token
    attempts: int
    seconds: float
    retries: list[str] = field(default_factory=list)  # one line per retried attempt
    note: str = ""  # what was done to the answer (cut to max_tokens), for the record
    cached: bool = False  # replayed from the answer cache: no model call, no tokens spent


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // CHARS_PER_TOKEN)


class _Slow(Exception):
    """The body did not arrive in time (a server that trickles it): retried like a timeout."""


class ChatClient:
    """Thread-safe: chains call `complete` concurrently (the underlying HTTP client is shared)."""

    def __init__(self, config: LLMConfig, *, backoff_s: float = 1.0, sleep: Callable[[float], None] = time.sleep,
                 cache=None):
        import openai

        self.config = config
        self.cache = cache  # an AnswerCache, or None
        self.backoff_s = backoff_s
        self.sleep = sleep
        self._openai = openai
        self._client = openai.OpenAI(api_key=config.api_key, base_url=config.base_url,
                                     timeout=config.request_timeout_s, max_retries=0)
        # Newer OpenAI models take max_completion_tokens and refuse max_tokens; local servers
        # mostly know only max_tokens. Switched once on the first refusal.
        self._token_param = "max_tokens"
        self._lock = threading.Lock()
        self._lost_in_a_row = 0
        self._dropped: ModelUnavailable | None = None  # set by the circuit breaker

    def close(self) -> None:
        self._client.close()

    def complete(self, model: str, messages: list[dict], max_tokens: int, *, deadline: float | None = None,
                 temperature: float | None = None) -> Reply:
        """One answer; raises RequestFailed or ModelUnavailable. `deadline` is time.monotonic();
        `temperature` None: the server's default."""
        key = self.cache.key(model, messages, temperature) if self.cache is not None else None
        if key is not None and (entry := self.cache.get(key)) is not None:
            return Reply(entry["answer"], entry.get("finish_reason"), 0, 0, False, 0, 0.0, [], entry.get("note", ""),
                         cached=True)
        with self._lock:
            if self._dropped is not None:
                raise self._dropped
        try:
            reply = self._complete(model, messages, max_tokens, deadline, temperature)
        except ContextTooLong:  # the prompt's fault, not the endpoint's
            raise
        except RequestFailed as lost:
            with self._lock:
                self._lost_in_a_row += 1
                if self._lost_in_a_row >= BREAKER_FAILURES and self._dropped is None:
                    self._dropped = ModelUnavailable(
                        f"dropped {self._where()} after {self._lost_in_a_row} requests lost in a row "
                        f"(the last: {lost.reason})"[:300], kind=ErrorKind.LLM_DROPPED)
                dropped = self._dropped
            if dropped is not None:
                raise dropped from None
            raise
        with self._lock:
            self._lost_in_a_row = 0
        if key is not None:
            self.cache.put(key, model, reply)
        return reply

    def _complete(self, model: str, messages: list[dict], max_tokens: int, deadline: float | None,
                  temperature: float | None) -> Reply:
        openai = self._openai
        started = time.monotonic()
        retries: list[str] = []
        attempts = 0
        while True:
            attempts += 1
            timeout = self.config.request_timeout_s
            if deadline is not None:
                timeout = min(timeout, max(deadline - time.monotonic(), 1.0))
            try:
                body = self._post(model, messages, max_tokens, timeout, temperature)
                return self._reply(body, messages, max_tokens, attempts, started, retries)
            except openai.BadRequestError as error:
                text = self._redact(_server_message(error))
                if self._token_param == "max_tokens" and "max_completion_tokens" in text:
                    self._token_param = "max_completion_tokens"
                    continue
                if _CONTEXT_PATTERNS.search(text) or error.code == "context_length_exceeded":
                    raise ContextTooLong(f"the prompt does not fit {model}'s context window: {text}"[:300],
                                         attempts, retries) from None
                raise ModelUnavailable(f"{self._where()} refused the request for {model} (400): {text}"[:300],
                                       kind=ErrorKind.LLM_REQUEST) from None
            except (openai.AuthenticationError, openai.PermissionDeniedError) as error:
                raise ModelUnavailable(f"{self._where()} rejected the API key ({error.status_code}): set "
                                       f"OPENAI_API_KEY to a valid key for this endpoint",
                                       kind=ErrorKind.LLM_AUTH) from None
            except openai.NotFoundError:
                raise ModelUnavailable(f"model '{model}' not found at {self._where()} (404): check --model / "
                                       f"HIERA_MODEL, and that the base URL ends in /v1 (GET {self._where()}/models "
                                       "lists the server's models)", kind=ErrorKind.LLM_MODEL) from None
            except openai.APIStatusError as error:
                status = error.status_code
                reason = f"HTTP {status}: {self._redact(_server_message(error))}"[:200]
                if status not in RETRY_STATUSES and status < 500:
                    raise ModelUnavailable(f"{self._where()} refused the request for {model} ({reason})",
                                           kind=ErrorKind.LLM_REQUEST) from None
                wait = _retry_after(error.response.headers)
            except (openai.APITimeoutError, _Slow):
                reason = f"no answer within {timeout:.3g} s"
                wait = None
            except openai.APIConnectionError as error:
                if _refused(error):
                    raise ModelUnavailable(f"cannot connect to {self._where()}: connection refused (is the server "
                                           "running, and is the base URL right?)",
                                           kind=ErrorKind.LLM_CONNECTION) from None
                reason = f"connection failed: {self._redact(str(error.__cause__ or error))}"[:200]
                wait = None
            except openai.OpenAIError as error:
                raise RequestFailed(f"unusable response: {self._redact(str(error))}"[:300], attempts, retries) from None
            except RequestFailed as error:  # a body that cannot be an answer: lost, as the server meant it
                error.attempts, error.retries = attempts, retries
                raise
            if attempts > self.config.max_retries:
                raise RequestFailed(f"{reason} (gave up after {attempts} attempts)", attempts, retries)
            delay = wait if wait is not None else self.backoff_s * 2 ** (attempts - 1) * random.uniform(0.5, 1.0)
            delay = min(delay, MAX_BACKOFF_S)
            if deadline is not None and time.monotonic() + delay >= deadline:
                raise RequestFailed(f"{reason} (no time left to retry)", attempts, retries)
            retries.append(f"attempt {attempts}: {reason}; retrying in {delay:.2g} s")
            self.sleep(delay)

    def _post(self, model: str, messages: list[dict], max_tokens: int, timeout: float,
              temperature: float | None) -> bytes:
        """The body of a 2xx answer, read up to its size limit and within `timeout` in all (the
        library's timeout bounds each read, not the whole); error statuses raise as the library does."""
        limit = BODY_ENVELOPE_BYTES + MAX_BODY_BYTES_PER_TOKEN * max_tokens
        stop = time.monotonic() + timeout
        with self._client.chat.completions.with_streaming_response.create(
                model=model, messages=messages, timeout=timeout, **{self._token_param: max_tokens},
                **({} if temperature is None else {"temperature": temperature})) as response:
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > limit:
                    raise RequestFailed(f"the answer was larger than {limit} bytes, more than max-answer-tokens "
                                        f"({max_tokens}) can hold: refused", 1)
                if time.monotonic() > stop:
                    raise _Slow()
                chunks.append(chunk)
        return b"".join(chunks)

    def _reply(self, body: bytes, messages: list[dict], max_tokens: int, attempts: int, started: float,
               retries: list[str]) -> Reply:
        try:
            payload = json.loads(body)
            choices = payload["choices"]
            choice = choices[0] if choices else {}
            text = (choice.get("message") or {}).get("content") or ""
            finish_reason = choice.get("finish_reason")
            usage = payload.get("usage") or {}
            if not isinstance(text, str) or not isinstance(usage, dict):
                raise TypeError("unexpected field types")
        except (ValueError, TypeError, AttributeError, KeyError, IndexError):
            shown = " ".join(body[:120].decode("utf-8", "replace").split())
            raise RequestFailed(f"the server's answer is not a chat completion: {self._redact(shown)!r}"[:300],
                                attempts, retries) from None
        if not text.strip():
            raise RequestFailed("the server sent an empty answer", attempts, retries)
        prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
        estimated = not (isinstance(prompt, int) and prompt > 0)
        prompt_tokens = estimate_tokens("".join(m["content"] for m in messages)) if estimated else prompt
        completion_tokens = (estimate_tokens(text) if estimated or not isinstance(completion, int) or completion < 0
                             else completion)
        note = ""
        if completion_tokens > max_tokens or len(text) > MAX_CHARS_PER_TOKEN * max_tokens:
            note = (f"the answer ({completion_tokens} tokens, {len(text)} characters) was over max-answer-tokens "
                    f"{max_tokens}: cut to its first {CHARS_PER_TOKEN * max_tokens} characters")
            text, finish_reason, completion_tokens = text[:CHARS_PER_TOKEN * max_tokens], "length", max_tokens
        return Reply(text, finish_reason, prompt_tokens, completion_tokens, estimated, attempts,
                     time.monotonic() - started, retries, note)

    def _where(self) -> str:
        return self.config.endpoint()

    def _redact(self, text: str) -> str:
        key = self.config.api_key
        return text.replace(key, "***") if key and len(key) >= 4 else text


def _server_message(error) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return " ".join(str(message).split())
    return " ".join(str(error.message).split())


def _retry_after(headers) -> float | None:
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                return None
    return None


def _refused(error: BaseException) -> bool:
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < 8:
        if isinstance(current, ConnectionRefusedError) or "connection refused" in str(current).lower():
            return True
        current = current.__cause__ or current.__context__
        seen += 1
    return False
