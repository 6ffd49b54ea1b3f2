"""One piece of expert knowledge: a technique, where it applies, when it pays and when it does not."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    key: str
    technique: str
    spaces: tuple[str, ...]
    classes: tuple[str, ...]  # workload classes it applies to
    ops: tuple[str, ...]  # op kinds it applies to; () = any op mix
    pays: str
    not_when: str
    hopper: str
    example: str
    cuda_only: bool = False  # a GPU-only technique (CUDA graphs, cuDNN flags): not offered on CPU

    def render(self) -> str:
        return (f"### {self.technique}\n- Pays: {self.pays}\n- Does not pay: {self.not_when}\n"
                f"- Hopper: {self.hopper}\n- Example:\n```\n{self.example.strip()}\n```")
