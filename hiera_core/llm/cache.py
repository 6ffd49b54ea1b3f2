"""Answers cached by prompt hash in the store, so a run that is resumed or repeated replays its
model calls instead of paying for them again.

    .hiera/cache/llm/<key>.json   {"run", "model", "answer", "finish_reason", "tokens", "note"}

The key is a digest of what decides the answer: the model, the endpoint (without credentials),
the full messages, the temperature and the configured max-answer-tokens (not the tokens a request
was granted, which shrink as the token budget is spent: a resumed run, having spent less, would
otherwise never hit). An answer given in this run is not served again within it: chains that send
the same prompt want different samples, not a copy. Pure: no openai.
"""

from __future__ import annotations

from hiera_core.store import Store, cache_key

KIND = "llm"


class AnswerCache:
    def __init__(self, store: Store, run_id: str, endpoint: str, max_answer_tokens: int):
        self.store = store
        self.run_id = run_id
        self.endpoint = endpoint
        self.max_answer_tokens = max_answer_tokens

    def key(self, model: str, messages: list[dict], temperature: float | None) -> str:
        return cache_key({"model": model, "endpoint": self.endpoint, "messages": messages,
                          "temperature": temperature, "max_tokens": self.max_answer_tokens})

    def get(self, key: str) -> dict | None:
        """The stored answer under `key` from an earlier run; None when there is none."""
        entry = self.store.read_cache(KIND, key)
        if not entry or entry.get("run") == self.run_id or not isinstance(entry.get("answer"), str):
            return None
        return entry

    def put(self, key: str, model: str, reply) -> None:
        self.store.write_cache(KIND, key, {
            "run": self.run_id, "model": model, "answer": reply.text, "finish_reason": reply.finish_reason,
            "tokens": {"prompt": reply.prompt_tokens, "completion": reply.completion_tokens}, "note": reply.note})
