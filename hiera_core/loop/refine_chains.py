"""A refinement chain's state: where it starts, the conversation it keeps, its earlier attempts and
the feedback its next prompt carries; and a model candidate waiting for its evaluation."""

from __future__ import annotations

from dataclasses import dataclass, field

from hiera_core.llm.record import Exchange
from hiera_core.loop.refine_regions import RegionWork
from hiera_core.plan.planner import Plan, open_spaces
from hiera_core.spec.model import Spec


@dataclass
class Attempt:
    """One answer of a chain and what became of it: the chain's memory across rounds."""

    sample: int
    candidate: str | None  # None: the answer could not be used
    code: str | None  # the module as the model wrote it
    result: str  # one line: the failed check, or the speedup it verified at


@dataclass
class Chain:
    index: int
    strategy: dict  # where this chain starts: {"space", "strategy", "reason"} (chains start apart)
    region: RegionWork | None = None  # None: the chain asks for the whole module
    compact: bool = False  # after a context-too-long answer: prompts without the knowledge entries
    base: list[dict] = field(default_factory=list)  # system + implementation messages of this chain
    last_answer: str | None = None
    last_candidate: str | None = None
    feedback: dict | None = None  # outcome, profile, task (critique, knowledge) for the refinement prompt
    attempts: list[Attempt] = field(default_factory=list)  # oldest first; the last is last_answer's
    knowledge_given: set[str] = field(default_factory=set)  # entries its first prompt carried in full


@dataclass
class Pending:
    """A model candidate waiting for its evaluation."""

    chain: Chain
    exchange: Exchange
    candidate: dict
    code: str  # the module as the model wrote it
    prefix_lines: int  # lines HIERA put above it (the CUDA runtime helpers)
    resources: str  # ptxas report of its kernels ("" when none or not compiled here)


def starting_point(plan: Plan, spec: Spec, index: int) -> dict:
    """Chain 1 starts from the chosen strategy; the others from the next ones of the offline
    ranking in a space open here, so the chains do not all try the same thing first."""
    if index == 0:
        return dict(plan.choice)
    others = [e for e in plan.entries if e.space in open_spaces(spec.device)
              and e.strategy != plan.choice["strategy"]]
    if not others:
        return dict(plan.choice)
    entry = others[(index - 1) % len(others)]
    return {"space": entry.space, "strategy": entry.strategy, "reason": entry.reason}
