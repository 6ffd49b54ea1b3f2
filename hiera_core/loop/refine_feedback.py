"""Feedback on an evaluated model candidate for its chain's next prompt: the outcome (the failed check
with its lines mapped into the model's module, or the verification), the profile against the
roofline, the task, knowledge re-retrieved for its bottleneck, and whether it earns a review."""

from __future__ import annotations

import re
from pathlib import Path

from hiera_core import knowledge
from hiera_core.loop.refine_chains import Chain, Pending
from hiera_core.spec.model import Spec

KNOWLEDGE_PER_ROUND = 3  # entries re-retrieved for a refinement prompt
MAX_QUOTED_LINES = 12


def feedback(spec: Spec, outcome, pending: Pending, code_first_line: int, previous_best, counters: str = "") -> dict:
    """The outcome, profile and task of the chain's refinement prompt; `code_first_line` is the line
    of the evaluated file that holds the model's module's line 1."""
    code_lines = pending.code.splitlines()
    if outcome.status == "verified":
        result = f"It verified ({outcome.verification})."
        profile = profile_text(spec, outcome, pending.resources, counters)
        best_speedup = previous_best[1] if previous_best else None
        if best_speedup is None or (outcome.speedup or 0.0) > best_speedup:
            task = ("It is the best so far. Make it faster: attack the largest remaining cost shown in the "
                    "profile, and stay exact.")
        else:
            task = (f"It is slower than the best so far ({previous_best[0]}, {best_speedup:.2f}x). Improve on "
                    "the best, or try a different approach.")
        return {"outcome": result, "profile": profile, "task": task}
    check = outcome.failed_check or {"check": outcome.status, "message": outcome.reason, "reproducer": ""}
    message = map_lines(check["message"], code_first_line, code_lines)
    detail = map_lines(str(check.get("reproducer") or "")[-1500:], code_first_line, code_lines)
    if outcome.status == "rejected":  # a verification check failed
        lines = [f"It was rejected: check '{check['check']}' failed: {message}"]
        lines += [f"Reproducer: {detail}"] if detail else []
        lines += [block] if (block := script_block(check.get("script") or "")) else []
    else:  # the worker itself failed: a timeout, a crash, a CUDA fault
        lines = [f"Its evaluation failed ({check['check']}): {message}"]
        lines += [f"Last lines of the worker's log:\n{detail}"] if detail else []
    return {"outcome": "\n".join(lines), "profile": "not timed",
            "task": "Fix the failure; keep what already works."}


def profile_text(spec: Spec, outcome, resources: str, counters: str = "") -> str:
    """A verified candidate's time against the reference and the roofline, its top kernels (or ops),
    its kernels' ptxas resources and its hardware counters."""
    bound = spec.roofline.bound_ms
    if not outcome.ms or outcome.speedup is None:
        return "\n".join(["timed, but too fast to measure reliably", *([counters] if counters else [])])
    lines = [f"{outcome.ms:.4g} ms per call vs {outcome.baseline_ms:.4g} ms for the reference: "
             f"{outcome.speedup:.2f}x; roofline bound {bound * 1000:.3g} us on {spec.roofline.device_name} "
             f"= {100 * bound / outcome.ms:.3g}% of roofline ({spec.workload_class}, "
             f"{spec.roofline.limiter}-limited)"]
    kernels = (getattr(outcome, "timing", None) or {}).get("kernels") or []
    if kernels:
        what = "kernels" if spec.device == "cuda" else "ops"
        lines.append(f"Top {what}: " + "; ".join(f"{k['name']} {k['ms']:.4g} ms ({k['share'] * 100:.0f}%)"
                                                for k in kernels[:5]))
    if resources:
        lines.append("Kernel resources (ptxas):\n" + resources)
    if counters:
        lines.append(counters)
    return "\n".join(lines)


def knowledge_for(spec: Spec, chain: Chain, outcome, space: str) -> str:
    """Entries for the bottleneck the candidate's profile shows (its top kernels or ops), else the
    reference's op mix; those the chain's first prompt carried are named, not repeated."""
    kernels = (getattr(outcome, "timing", None) or {}).get("kernels") or []
    shares = knowledge.op_shares_of_kernels(kernels) if kernels else knowledge.op_shares_of(spec.ops)
    where = "its profile" if kernels else "the reference's op mix (it was not timed)"
    if kernels and space == "custom_cuda" and spec.ops and shares.get("other", 0.0) >= 0.5 * sum(shares.values()):
        # A custom kernel's name is its author's ("relu_scale_add"): it tells no op kind, while the ops
        # it computes are the reference's.
        shares = knowledge.op_shares_of(spec.ops)
        where = "the reference's op mix (its profile's kernels are its own, whose names tell no op)"
    mix = ", ".join(f"{kind} {share:.0%}" for kind, share in sorted(shares.items(), key=lambda kv: -kv[1])[:4])
    entries = knowledge.select(spec.workload_class, shares, space, spec.device, limit=KNOWLEDGE_PER_ROUND)
    fresh = [entry for entry in entries if entry.key not in chain.knowledge_given]
    given = [entry.technique for entry in entries if entry.key in chain.knowledge_given]
    lines = [f"Bottleneck by {where}: {mix or 'no op breakdown'}."]
    if given:
        lines.append("Given in the first prompt and still relevant: " + "; ".join(given) + ".")
    if fresh:
        lines.append(knowledge.render(fresh))
    return "\n".join(lines)


def review_verdict(outcome, previous_best) -> str:
    """Why an evaluated attempt gets a review ("" when it is the best so far): it failed, or it
    verified no faster than the best."""
    if outcome.status != "verified":
        return f"It failed ({outcome.status}: {str(outcome.reason).splitlines()[0] if outcome.reason else ''})."
    if previous_best is not None and (outcome.speedup or 0.0) <= previous_best[1]:
        return (f"It verified at {outcome.speedup or 0.0:.3g}x over eager, no faster than the best so far "
                f"({previous_best[0]}, {previous_best[1]:.3g}x).")
    return ""


def script_block(path: str) -> str:
    """The runnable reproducer of a mismatch (hiera_core.verify.repro) with its text; "" when there is none."""
    try:
        text = Path(path).read_text(encoding="utf-8") if path else ""
    except OSError:
        return ""
    return (f"This script rebuilds the failing inputs and shows the mismatch (`python {path}`; exit 1 while it "
            f"persists):\n```python\n{text.rstrip()}\n```") if text else ""


_FILE_LINE = re.compile(r"(?:[\w./<>-]+\.py\"?(?:, line |:)|\bline )(\d+)")


def map_lines(text: str, first_line: int, code_lines: list[str]) -> str:
    """Rewrite line numbers of the evaluated file into lines of the model's module, quoting them.

    `first_line` is the file line holding the module's line 1; references outside the module
    (the reference source above it, the runtime helpers) are left as they are.
    """
    quoted: dict[int, str] = {}

    def replace(match: re.Match) -> str:
        line = int(match[1]) - first_line + 1
        if not 1 <= line <= len(code_lines):
            return match[0]
        if len(quoted) < MAX_QUOTED_LINES:
            quoted[line] = code_lines[line - 1]
        return f"line {line} of your module"

    mapped = _FILE_LINE.sub(replace, text)
    if quoted:
        mapped += "\n" + "\n".join(f"  {line:4d} | {source}" for line, source in sorted(quoted.items()))
    return mapped
