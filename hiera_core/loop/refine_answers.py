"""A sample's answer made a candidate: its module (hiera_core.llm.answers reads it), its space, the
runtime helpers put above it, and the checks before any evaluation: an answer with no usable
module, a module already evaluated, kernels that do not compile."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from hiera_core.llm.answers import BadAnswer, extract_module
from hiera_core.llm.client import Reply
from hiera_core.llm.record import Exchange, LLMRecord
from hiera_core.loop.refine_chains import Attempt, Chain, Pending
from hiera_core.loop.refine_kernels import KernelCompiler, nvrtc_kernels, runtime_helpers_called, runtime_prefix


@dataclass
class Unused:
    """An answer that is not evaluated: how its exchange closes, and what its chain is told."""

    status: str  # the exchange's: invalid, duplicate or rejected
    reason: str
    log: str  # the line said about it, after "sample N: "
    attempt: Attempt
    feedback: dict
    candidate: str | None = None  # its candidate's name, when it got one


def normalised(code: str) -> str:
    """The module without its formatting and comments (its AST), so a re-sent answer is known as one."""
    try:
        return ast.dump(ast.parse(code))
    except SyntaxError:
        return code.strip()


class AnswerReader:
    """Reads the answers of a run's samples; remembers every module evaluated, so the same one again
    is not evaluated twice."""

    def __init__(self, record: LLMRecord, model: str, class_name: str):
        self.model = model
        self.class_name = class_name
        self.seen_code: dict[str, str] = {}  # normalised module -> the candidate it was evaluated as
        self.kernels = KernelCompiler(record)

    def known(self, candidate: dict) -> None:
        """`candidate`'s module counts as evaluated: an answer that sends it back as is is not."""
        self.seen_code.setdefault(normalised(candidate["code"]), candidate["name"])

    def read(self, chain: Chain, exchange: Exchange, reply: Reply) -> Pending | Unused:
        """The candidate of the chain's answer, waiting for its evaluation, or why it gets none."""
        try:
            code = extract_module(reply.text, self.class_name, reply.finish_reason)
        except BadAnswer as error:
            return Unused("invalid", str(error), f"unusable answer: {error}",
                          Attempt(exchange.sample, None, None, f"could not be used: {error}"),
                          {"outcome": f"Your answer could not be used: {error}.", "profile": "not timed",
                           "task": "Answer again with exactly one ```python block holding the complete module."})
        name = f"llm.s{exchange.sample:02d}"
        # A module that calls HIERA's kernel or extension helpers is a custom-kernel candidate whatever
        # the planned space (a C++ extension on a CPU run, say): it faces that space's checks.
        space = "custom_cuda" if runtime_helpers_called(code) else chain.strategy["space"]
        prefix = runtime_prefix(code) if space == "custom_cuda" else ""
        earlier = self.seen_code.get(normalised(code))
        if earlier is not None:  # the same module again: its verdict stands, no second evaluation
            return Unused("duplicate", f"the same module as {earlier}",
                          f"the same module as {earlier}, not evaluated again",
                          Attempt(exchange.sample, None, code, f"the same module as {earlier}"),
                          {"outcome": f"Your answer is the same module as {earlier}, already evaluated.",
                           "profile": "not timed",
                           "task": "Change something: a different approach, or a fix of what failed."})
        where = f", region {exchange.region} in {exchange.region_start}" if chain.region else ""
        candidate = {"name": name, "space": space, "strategy": f"llm: {chain.strategy['strategy']}"[:100],
                     "code": prefix + code, "reason": f"written by {self.model} (sample {exchange.sample}"
                     + where + (f", refining {chain.last_candidate})" if exchange.refines else ")"),
                     "requires_cuda": space != "pytorch", "cuda_sources": [k.source for k in nvrtc_kernels(code)]}
        exchange.candidate = name
        self.seen_code[normalised(code)] = name
        errors, resources = self.kernels.compile(code) if space == "custom_cuda" else ("", "")
        if errors:
            return Unused("rejected", "compile: " + errors.splitlines()[0], f"{name} does not compile",
                          Attempt(exchange.sample, name, code, "did not compile: " + errors.splitlines()[0]),
                          {"outcome": "NVRTC rejected the kernels (line numbers are lines of your module):\n"
                                      + errors, "profile": "not timed",
                           "task": "Fix the compile errors; keep the rest of the module."}, candidate=name)
        return Pending(chain, exchange, candidate, code, prefix.count("\n"), resources)
