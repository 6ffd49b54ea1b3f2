"""The prompts of the refinement chains: a chain's first prompt (the whole module, or one region of
it), its refinement prompts (feedback, the best so far, its earlier attempts), and the review of an
attempt asked of the planning model; rendered from the templates in hiera_core.prompts."""

from __future__ import annotations

from hiera_core import knowledge, prompts
from hiera_core.llm.client import estimate_tokens
from hiera_core.loop.refine_chains import Attempt, Chain
from hiera_core.loop.refine_kernels import runtime_note
from hiera_core.loop.refine_regions import region_lines_text, region_text
from hiera_core.plan.planner import SPACE_MEANINGS, Plan
from hiera_core.spaces.strategy import SPACES
from hiera_core.spec.model import Spec, render_text

MEMORY_TOKENS = 6000  # earlier attempts of a chain in full in its refinement prompt, newest first, up to this
LEFT_OUT = "(left out: the prompt has to fit the model's context window)"  # a compact chain's knowledge

Best = tuple[str, float, str, str | None]  # the best verified so far: name, speedup, space, model code


class Prompts:
    """Renders a run's prompts from its contract, reference module and device."""

    def __init__(self, spec: Spec, plan: Plan, reference_source: str, class_name: str, device_text: str):
        self.spec = spec
        self.plan = plan
        self.reference_source = reference_source
        self.class_name = class_name
        self.device_text = device_text

    def messages(self, chain: Chain, best: Best | None, racing: list[str]) -> list[dict]:
        """The chain's next request: its first conversation, then the last answer and its feedback.
        `racing`: the offline candidates not evaluated yet."""
        if not chain.base:
            to_beat = to_beat_text(best, racing)
            first = self._region(chain, to_beat) if chain.region else self._implement(chain, to_beat)
            chain.base = [{"role": "system", "content": prompts.load("system").render(device=self.device_text)},
                          {"role": "user", "content": first}]
        if not chain.feedback:
            return list(chain.base)
        feedback = chain.feedback
        return [*chain.base, {"role": "assistant", "content": chain.last_answer or ""},
                {"role": "user", "content": prompts.load("refine").render(
                    outcome=feedback["outcome"], profile=feedback["profile"],
                    best=best_text(best, chain.last_candidate), task=feedback["task"],
                    critique=feedback.get("critique") or "None: the previous answer was not reviewed.",
                    knowledge=(LEFT_OUT if chain.compact
                               else feedback.get("knowledge") or "None beyond those given above."),
                    history=history_text(chain.attempts[:-1], MEMORY_TOKENS))}]

    def reflection(self, code: str, feedback: dict, verdict: str) -> list[dict]:
        """The request for a review of an attempt (`code`, with its feedback and why it is reviewed)."""
        return [{"role": "user", "content": prompts.load("reflect").render(
            spec=render_text(self.spec), code=code.rstrip(), outcome=feedback["outcome"],
            profile=feedback["profile"], verdict=verdict)}]

    def _implement(self, chain: Chain, to_beat: str) -> str:
        spec = self.spec
        space = chain.strategy["space"]
        entries = knowledge.select(spec.workload_class, knowledge.op_shares_of(spec.ops), space, spec.device)
        chain.knowledge_given = set() if chain.compact else {entry.key for entry in entries}
        return prompts.load("implement").render(
            spec=render_text(spec), reference=self.reference_source.rstrip("\n"), class_name=self.class_name,
            space_rules=self._space_rules(space),
            strategy=f"{chain.strategy['strategy']} (space: {SPACES[space]}): {chain.strategy['reason']}",
            knowledge=LEFT_OUT if chain.compact else knowledge.render(entries),
            to_beat=to_beat)

    def _region(self, chain: Chain, to_beat: str) -> str:
        spec, work = self.spec, chain.region
        region, start = work.region, work.start
        kinds = {node["name"]: node.get("kind") or "other" for node in spec.graph.get("nodes", [])}
        shares = {kinds.get(name, "other"): 1.0 for name in region.nodes}
        entries = knowledge.select(region.workload_class, shares, start["space"], spec.device)
        chain.knowledge_given = set() if chain.compact else {entry.key for entry in entries}
        return prompts.load("region").render(
            spec=render_text(spec), reference=self.reference_source.rstrip("\n"), class_name=self.class_name,
            region=region_text(spec, region, len(self.plan.regions)), start_name=start["name"],
            start=start["code"].rstrip(), lines=region_lines_text(start["code"], region.nodes),
            space_rules=self._space_rules(start["space"]),
            knowledge=LEFT_OUT if chain.compact else knowledge.render(entries),
            to_beat=to_beat)

    def _space_rules(self, space: str) -> str:
        template = prompts.load(f"space_{space}")
        if space == "pytorch":
            return template.render(device=self.device_text)
        if space == "cuda_libs":
            return template.render(precision=self.spec.precision)
        return template.render(runtime=runtime_note())


def to_beat_text(best: Best | None, racing: list[str]) -> str:
    """What a first draft has to beat: the best verified so far, else the offline candidates racing."""
    if best:
        name, speedup, space, _ = best
        return f"{name} ({SPACE_MEANINGS[space].split(':')[0]}) is verified at {speedup:.3g}x over eager."
    return ("No candidate has verified yet" + (f"; offline candidates in the race: {', '.join(racing)}."
                                               if racing else "."))


def best_text(best: Best | None, previous: str | None) -> str:
    """The best so far for a refinement prompt, with its code unless it is the chain's own `previous`."""
    if not best:
        return "No candidate has verified yet."
    name, speedup, space, code = best
    text = f"{name} ({space}), {speedup:.3g}x over eager."
    if code and name != previous:
        text += f"\n```python\n{code.rstrip()}\n```"
    return text


def history_text(attempts: list[Attempt], token_budget: int) -> str:
    """The attempts before the previous answer, newest first: in full (code and result) while they
    fit `token_budget`, then one line each."""
    if not attempts:
        return "None before the previous answer."
    lines: list[str] = []
    room = token_budget
    for attempt in reversed(attempts):
        head = f"- sample {attempt.sample} ({attempt.candidate or 'not evaluated'}): {attempt.result}"
        full = f"{head}\n```python\n{attempt.code.rstrip()}\n```" if attempt.code else head
        cost = estimate_tokens(full)
        if attempt.code and cost <= room:
            lines.append(full)
            room -= cost
        else:
            lines.append(head)
            room -= estimate_tokens(head)
    return "\n".join(lines)
