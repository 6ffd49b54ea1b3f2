"""docs/rules.md documents every rule, and its bad/good examples really trigger / pass the rule."""

import re
from pathlib import Path

import pytest

from hiera_core.analysis import RULES, CheckConfig, analyze_file

DOC = Path(__file__).parents[2] / "docs" / "rules.md"
SECTION_RE = re.compile(r"^### (HC\d{3}) ([a-z0-9-]+)\n\nSeverity: \*\*(\w+)\*\*\. (.*?)\n\n(.*?)\n\n"
                        r"Bad:\n\n```(\w+)\n(.*?)\n```\n\nGood:\n\n```(\w+)\n(.*?)\n```", re.MULTILINE | re.DOTALL)
# these need files on disk (a proposal and its reference, unreadable paths), tested in their own modules
NOT_EXECUTABLE = {"HC001", "HC002", "HC201", "HC202", "HC203"}
EXTENSION = {"cuda": ".cu", "python": ".py"}


def sections():
    return {match.group(1): match.groups() for match in SECTION_RE.finditer(DOC.read_text(encoding="utf-8"))}


def test_every_rule_is_documented_with_its_table_text():
    documented = sections()
    assert set(documented) == set(RULES)
    for code, (_, name, severity, summary, explanation, *_) in documented.items():
        rule = RULES[code]
        assert (name, severity, summary, explanation) == (rule.name, rule.severity, rule.summary, rule.explanation)


# rules that need a target architecture, with the one their examples are written for
ARCH_RULES = {"HC120": "sm_52"}


def codes_of(path, text: str, code: str) -> list[str]:
    """The codes reported for an example, with the rule selected (it may be off by default)."""
    if code in ARCH_RULES:
        from hiera_core.analysis.cuda_rules import check_cuda
        from hiera_core.analysis.cuda_source import parse_cuda

        return [f.code for f in check_cuda(parse_cuda(text), str(path), ARCH_RULES[code])]
    return [f.code for f in analyze_file(str(path), text, CheckConfig(select=[code]))]


def test_rules_off_by_default_say_so():
    for code, rule in RULES.items():
        assert rule.default == ("off by default" not in rule.summary), code


@pytest.mark.parametrize("code", sorted(set(RULES) - NOT_EXECUTABLE))
def test_bad_example_triggers_and_good_example_passes(code, tmp_path):
    _, _, _, _, _, bad_lang, bad, good_lang, good = sections()[code]
    bad_path = tmp_path / f"bad{EXTENSION[bad_lang]}"
    good_path = tmp_path / f"good{EXTENSION[good_lang]}"
    bad_codes = codes_of(bad_path, bad, code)
    good_codes = codes_of(good_path, good, code)
    assert code in bad_codes
    assert code not in good_codes
    # a good example is clean of every warning and error, so it can be copied as is
    assert not [f for f in analyze_file(str(good_path), good) if f.severity != "info"], good_codes
