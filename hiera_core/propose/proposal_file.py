"""The proposal file `<stem>_hiera.py`: its header, and checks that it still matches its reference.

Pure text (no torch): the CLI, the language server and `hiera-lsp --check` all read headers.

A proposal is the reference source copied verbatim (so the file imports on its own) followed by
`class ModelNew(<Reference>)` and whatever it needs. The header above it records what was
verified; `body-sha256` covers everything below the header, so hand edits are detectable, and
`reference-sha256` covers the reference file, so a changed reference makes the proposal stale.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, fields

HEADER_START = "# ---- HIERA proposal " + "-" * 58
HEADER_END = "# " + "-" * 78
FORMAT_VERSION = "1"


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def final_newline_variants(text: str) -> tuple[str, ...]:
    """`text` as written, and as an editor may save it: with one final newline added (Vim's
    'fixeol' after an edit that ends in a newline) or removed."""
    trimmed = text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith("\n") else None
    return (text, text + "\n") + ((trimmed,) if trimmed is not None else ())


def same_up_to_final_newline(a: str, b: str) -> bool:
    return b in final_newline_variants(a)


@dataclass
class ProposalHeader:
    reference: str  # path of the reference file, relative to the proposal's directory
    reference_class: str
    reference_sha256: str
    body_sha256: str = ""
    space: str = ""
    strategy: str = ""
    verification: str = ""  # e.g. "passed: 9 checks, 5 input sets, max error 2.1e-07"
    speedup: str = ""  # e.g. "2.31x over eager (1.200 ms -> 0.519 ms)"
    device: str = ""
    versions: str = ""
    date: str = ""
    # What of the figures above an earlier run measured (the store's outcome and confirmation caches), and when
    cached: str = ""
    contract: list[str] = field(default_factory=list)  # one assumption per line
    regions: list[str] = field(default_factory=list)  # the plan per region of the module, one per line
    # region-level work by a model: the region its sample rewrote and the candidate it started from
    target_region: str = ""
    run: str = ""  # run id in .hiera/runs
    header_lines: int = 0  # filled by parse_header: lines the header occupies

    def verified(self) -> bool:
        return self.verification.startswith("passed")


_KEYS = {f.name.replace("_", "-"): f.name for f in fields(ProposalHeader)
         if f.name not in ("contract", "regions", "header_lines")}


def render(header: ProposalHeader, body: str) -> str:
    """The full proposal text: header (with body hash filled in) + body."""
    header.body_sha256 = sha256_text(body)
    out = [HEADER_START, f"# hiera-proposal: {FORMAT_VERSION}"]
    for key, attr in _KEYS.items():
        value = getattr(header, attr)
        if value:
            out.append(f"# {key}: {value}")
    out.extend(f"# contract: {item}" for item in header.contract)
    out.extend(f"# region: {item}" for item in header.regions)
    out.append(HEADER_END)
    return "\n".join(out) + "\n" + body


def split(text: str) -> tuple[ProposalHeader | None, str]:
    """(header, body) of a proposal; (None, text) when the text has no HIERA header."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != HEADER_START:
        return None, text
    values: dict[str, str] = {}
    listed: dict[str, list[str]] = {"contract": [], "region": []}
    for index, raw in enumerate(lines[1:], start=1):
        line = raw.rstrip("\r\n")
        if line == HEADER_END:
            header = ProposalHeader(**{_KEYS[k]: v for k, v in values.items() if k in _KEYS},
                                    contract=listed["contract"], regions=listed["region"]) if {
                "reference", "reference-class", "reference-sha256"} <= values.keys() else None
            if header is not None:
                header.header_lines = index + 1
            return header, "".join(lines[index + 1:])
        key, _, value = line.lstrip("# ").partition(": ")
        if key in listed:
            listed[key].append(value)
        else:
            values[key] = value
    return None, text


def parse_header(text: str) -> ProposalHeader | None:
    return split(text)[0]


@dataclass
class ProposalStatus:
    """What `--check` and the editor say about a proposal file."""

    header: ProposalHeader | None
    reference_path: str | None  # resolved absolute path of the reference
    stale: bool = False  # reference changed (or vanished) since verification
    reference_missing: bool = False
    hand_edited: bool = False
    unverified: bool = False


def check(proposal_path: str, text: str | None = None) -> ProposalStatus:
    """Compare a proposal with its reference as they are on disk now."""
    if text is None:
        with open(proposal_path, encoding="utf-8") as handle:
            text = handle.read()
    header, body = split(text)
    if header is None:
        return ProposalStatus(None, None)
    reference_path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(proposal_path)),
                                                   header.reference))
    status = ProposalStatus(header, reference_path)
    # One final newline more or less is how editors save files, not an edit of the proposal.
    status.hand_edited = header.body_sha256 not in {sha256_text(variant) for variant in final_newline_variants(body)}
    status.unverified = not header.verified()
    try:
        with open(reference_path, encoding="utf-8") as handle:
            status.stale = sha256_text(handle.read()) != header.reference_sha256
    except OSError:
        status.reference_missing = True
        status.stale = True
    return status


def proposal_path_for(source_path: str) -> str:
    stem, _ = os.path.splitext(source_path)
    return stem + "_hiera.py"


CANDIDATE_MARKER = "# ---- HIERA candidate: "


def assemble_body(reference_source: str, candidate_name: str, space: str, candidate_code: str) -> str:
    """The proposal body: the reference verbatim (so the file imports alone), then the candidate."""
    banner = f"{CANDIDATE_MARKER}{candidate_name} ({space}) "
    return (reference_source.rstrip("\n") + "\n\n\n" + banner + "-" * max(4, 80 - len(banner)) + "\n"
            + candidate_code.rstrip("\n") + "\n")


def prefix_is_reference(prefix: str, reference_source: str) -> bool:
    """Whether the part of a body above its candidate marker is what assemble_body puts there."""
    marker_line = prefix.rstrip("\n").rsplit("\n", 1)[-1]
    return (marker_line.startswith(CANDIDATE_MARKER)
            and prefix[:len(prefix) - len(marker_line) - 1].rstrip("\n") == reference_source.rstrip("\n"))


def first_difference_line(text: str, reference_source: str) -> int:
    for number, (ours, theirs) in enumerate(zip(text.splitlines(), reference_source.splitlines()), start=1):
        if ours != theirs:
            return number
    return min(len(text.splitlines()), len(reference_source.splitlines())) + 1


def candidate_part(body: str) -> tuple[str, int]:
    """(candidate source, 1-based line where it starts in the body); the whole body when no marker."""
    index = body.rfind("\n" + CANDIDATE_MARKER)
    if index < 0:
        return body, 1
    start = body.index("\n", index + 1) + 1
    return body[start:], body[:start].count("\n") + 1
