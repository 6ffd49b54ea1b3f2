"""Candidate outcomes and their fresh-process confirmation, cached in the store, so a second run on
an unchanged module evaluates nothing it already knows (issue 24).

    .hiera/cache/outcome/<key>.json        one candidate's verdict, its checks and its timing
    .hiera/cache/confirmation/<key>.json   the fresh-process re-timing of the best candidates

An outcome's key (`OutcomeCache.parts`) holds what its evaluation depends on: the reference's spec
cache parts (the module and its same-folder imports, class, device and its model, torch, custom
CUDA, HIERA's own code; not the budget, which only says how many candidates there are), the
candidate (name, space, strategy, code, CUDA sources), the contract it is verified under
(tolerances, precision, dynamic dims, mutation, determinism, the roofline bound its timing is
judged against) and its time limits (--timeout, the candidate floor). Only the candidate's own
verdicts are kept: verified, or rejected by a check of its code or outputs. A worker that failed
(a timeout, a crash, an exit mid-step) or a timing-window check (a busy machine) is evaluated again
next time. A confirmation is keyed by the outcome keys of the candidates it re-timed, in order, and
is reused only when every one of those outcomes came from the cache: a candidate evaluated anew is
confirmed anew. Entries that do not read back as one of these records are misses, and are replaced
by the next write (Store.write_cache: atomic). Pure: no torch.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

from hiera_core.store import Store, cache_key, iso_time

OUTCOME_CACHE = "outcome"  # the store's cache kinds
CONFIRMATION_CACHE = "confirmation"
OUTCOME_CACHE_FORMAT = 1  # the entries' layout; a change makes old entries misses
CACHED_STATUSES = ("verified", "rejected")
# Rejections that say more about the worker or the machine than about the candidate: not cached.
UNSETTLED_CHECKS = frozenset({"timeout", "crash", "runner-exit", "timing-window", "oom"})
# What of the spec a verdict or a timing judgement reads (the rest describes the reference).
CONTRACT_FIELDS = ("tolerance", "precision", "dynamic_dims", "mutated_inputs", "deterministic")

Record = TypeVar("Record")


def cacheable(outcome: dict) -> str | None:
    """Why `outcome` (a CandidateOutcome's fields) is not cached, or None when it is."""
    if outcome["status"] not in CACHED_STATUSES:
        return f"not cached: its worker failed ({outcome['reason']})"
    check = (outcome.get("failed_check") or {}).get("check")
    if outcome["status"] == "rejected" and check in UNSETTLED_CHECKS:
        return f"not cached: the {check} check says more about this run than about the candidate"
    return None


class OutcomeCache:
    """The run's view of the outcome and confirmation caches: `spec_parts` None (the spec's key
    could not be told) caches nothing; `read` False (--no-cache) evaluates afresh and caches that."""

    def __init__(self, store: Store, spec_parts: dict | None, spec: dict, time_limits: dict, read: bool):
        self.store = store
        self.read = read
        self.base = None if spec_parts is None else {
            "format": OUTCOME_CACHE_FORMAT,
            "reference": {name: value for name, value in spec_parts.items() if name != "budget"},
            "contract": {**{name: spec.get(name) for name in CONTRACT_FIELDS},
                         "roofline_bound_ms": (spec.get("roofline") or {}).get("bound_ms")},
            "time_limits": time_limits}

    def parts(self, candidate: dict) -> dict | None:
        if self.base is None:
            return None
        return {**self.base, "candidate": {name: candidate.get(name) for name in
                                           ("name", "space", "strategy", "code", "cuda_sources")}}

    def lookup(self, candidate: dict, make: type[Record]) -> Record | None:
        """The cached outcome of `candidate` as the dataclass `make(**fields)` builds it, its `cache`
        entry saying so; None when not read (--no-cache), not cached, or the entry is not one (written
        for other parts, corrupt, a status that is never cached, fields other than all of `make`'s:
        an entry is written whole, and `make`'s defaults must not fill in a partial one)."""
        parts = self.parts(candidate)
        if parts is None or not self.read:
            return None
        key = cache_key(parts)
        entry = self.store.read_cache(OUTCOME_CACHE, key)
        if not entry or entry.get("format") != OUTCOME_CACHE_FORMAT or entry.get("parts") != parts:
            return None
        fields = entry.get("outcome")
        try:
            if (fields["name"] != candidate["name"] or cacheable(fields) is not None
                    or set(fields) != {item.name for item in dataclasses.fields(make)}):
                return None
            evaluated, run = str(entry["evaluated"]), str(entry["run"])
            note = (f"candidate {candidate['name']}: outcome from cache (key {key[:12]}, evaluated {evaluated} in "
                    f"run {run}; --no-cache re-evaluates)")
            return make(**{**fields, "cache": {"key": key, "used": True, "evaluated": evaluated, "run": run,
                                               "note": note}})
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def record(self, candidate: dict, outcome: dict, run_id: str) -> dict | None:
        """Cache a freshly evaluated outcome when it is a verdict of the candidate's own; the
        outcome's `cache` entry (None when nothing can be cached)."""
        parts = self.parts(candidate)
        if parts is None:
            return None
        key = cache_key(parts)
        why_not = cacheable(outcome)
        if why_not is None:
            self.store.write_cache(OUTCOME_CACHE, key, {
                "format": OUTCOME_CACHE_FORMAT, "key": key, "parts": parts, "evaluated": iso_time(), "run": run_id,
                "outcome": {**outcome, "cache": None}})
        return {"key": key, "used": False, "note": why_not or f"outcome cached (key {key[:12]})"}

    # ---- the fresh-process confirmation of the best -------------------------------------------------

    @staticmethod
    def _confirmation_parts(outcome_keys: list[str]) -> dict:
        return {"format": OUTCOME_CACHE_FORMAT, "outcomes": outcome_keys}

    def confirmation(self, contenders: list[dict]) -> dict | None:
        """The confirmation cached for these contenders (their outcomes' fields, in order), with its
        `cache` entry; None unless every contender's outcome came from the cache (and --no-cache
        was not given) and one was cached for exactly them."""
        markers = [contender.get("cache") or {} for contender in contenders]
        if not self.read or not contenders or not all(marker.get("used") for marker in markers):
            return None
        parts = self._confirmation_parts([marker["key"] for marker in markers])
        key = cache_key(parts)
        entry = self.store.read_cache(CONFIRMATION_CACHE, key)
        if not entry or entry.get("format") != OUTCOME_CACHE_FORMAT or entry.get("parts") != parts:
            return None
        confirmation = entry.get("confirmation")
        names = [contender["name"] for contender in contenders]
        try:
            if not (isinstance(confirmation, dict) and confirmation["candidate"] in (None, *names)
                    and set(confirmation["retimed"]) <= set(names) and isinstance(confirmation["held"], bool)
                    and isinstance(confirmation["notes"], list) and not confirmation.get("unsettled")):
                return None
            confirmed, run = str(entry["confirmed"]), str(entry["run"])
        except (KeyError, TypeError):
            return None
        note = (f"confirmation from cache (key {key[:12]}, re-timed in a fresh process {confirmed} in run {run}; "
                "--no-cache re-times)")
        return {**confirmation, "cache": {"key": key, "used": True, "confirmed": confirmed, "run": run, "note": note}}

    def record_confirmation(self, contenders: list[dict], confirmation: dict, run_id: str) -> None:
        """Cache a fresh confirmation, unless a contender's outcome has no key or a re-timing did
        not settle (a worker failed, a check failed twice in a fresh process)."""
        markers = [contender.get("cache") or {} for contender in contenders]
        if confirmation.get("unsettled") or not markers or not all(marker.get("key") for marker in markers):
            return
        parts = self._confirmation_parts([marker["key"] for marker in markers])
        key = cache_key(parts)
        self.store.write_cache(CONFIRMATION_CACHE, key, {
            "format": OUTCOME_CACHE_FORMAT, "key": key, "parts": parts, "confirmed": confirmation["confirmed"],
            "run": run_id, "confirmation": {name: value for name, value in confirmation.items() if name != "cache"}})
