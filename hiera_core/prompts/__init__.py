"""Prompt templates, one file per stage, each stating the data it receives.

A template is a Markdown file with a header block:

    ---
    stage: space selection
    receives:
      spec: the contract-augmented spec as text (hiera_core.spec.model.render_text)
      ...
    answer: what the model must answer with
    ---
    The body, with $name placeholders (string.Template), one per entry of `receives`.

`render` insists that the data given is exactly what the header declares, so a template and the
code filling it cannot drift apart silently. The header never reaches the model. Pure text.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Template:
    name: str
    stage: str
    receives: dict[str, str]  # placeholder -> what it holds
    answer: str
    body: str

    def placeholders(self) -> set[str]:
        return {match[1] or match[2] for match in string.Template.pattern.findall(self.body)
                if match[1] or match[2]}

    def render(self, **data: str) -> str:
        missing = set(self.receives) - set(data)
        extra = set(data) - set(self.receives)
        if missing or extra:
            raise KeyError(f"prompt '{self.name}' receives {sorted(self.receives)}; "
                           f"missing {sorted(missing)}, unexpected {sorted(extra)}")
        return string.Template(self.body).substitute(data).strip() + "\n"


def _parse(name: str, text: str) -> Template:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise ValueError(f"prompt '{name}' has no header block")
    end = lines.index("---", 1)
    stage, answer, receives, section = "", "", {}, None
    for line in lines[1:end]:
        if line.startswith("  ") and section == "receives":
            key, _, meaning = line.strip().partition(":")
            receives[key.strip()] = meaning.strip()
            continue
        key, _, value = line.partition(":")
        section = key.strip()
        if section == "stage":
            stage = value.strip()
        elif section == "answer":
            answer = value.strip()
    return Template(name, stage, receives, answer, "\n".join(lines[end + 1:]))


@cache
def load(name: str) -> Template:
    return _parse(name, (FOLDER / f"{name}.md").read_text(encoding="utf-8"))


def names() -> list[str]:
    return sorted(path.stem for path in FOLDER.glob("*.md"))
