from hiera_core.propose import proposal_file as proposal
from hiera_core.task.directives import directives_above, ignored_codes


def test_directive_above_class_and_decorators():
    lines = ["# hiera: inputs=make_inputs init=make_init", "# hiera: dynamic=x:0,y:1 precision=tf32",
             "@some_decorator", "class Block(nn.Module):"]
    found = directives_above(lines, 3)
    assert (found.inputs, found.init, found.precision) == ("make_inputs", "make_init", "tf32")
    assert found.dynamic == [("x", 0), ("y", 1)]
    assert found.lines == [1, 2] and not found.problems


def test_directive_problems_name_line_and_fix():
    lines = ["# hiera: inputs=make_inputs colour=blue dynamic=x", "class Block(nn.Module):"]
    problems = directives_above(lines, 2).problems
    messages = [p.message for p in problems]
    assert "unknown hiera directive key 'colour'" in messages
    assert "bad dynamic dim 'x'" in messages
    assert all(p.line == 1 for p in problems)
    assert any("known keys" in p.hint for p in problems)


def test_blank_line_detaches_directive():
    lines = ["# hiera: inputs=make_inputs", "", "class Block(nn.Module):"]
    assert not directives_above(lines, 3).declared


def test_ignore_codes_both_comment_styles():
    assert ignored_codes("x = 1  # hiera: ignore[HC101, HC202]") == {"HC101", "HC202"}
    assert ignored_codes("k<<<g, b>>>(); // hiera: ignore[HC103]") == {"HC103"}
    assert ignored_codes("nothing here") == set()


def _header(**overrides):
    fields = dict(reference="model.py", reference_class="Model", reference_sha256=proposal.sha256_text("ref\n"),
                  verification="passed: 5 checks", contract=["input x: float32[4] contiguous"])
    fields.update(overrides)
    return proposal.ProposalHeader(**fields)


def test_header_round_trip_and_body_hash():
    text = proposal.render(_header(), "ref\n\nclass ModelNew: pass\n")
    header, body = proposal.split(text)
    assert header.reference_class == "Model" and header.contract == ["input x: float32[4] contiguous"]
    assert header.body_sha256 == proposal.sha256_text(body)
    assert proposal.parse_header("import torch\n") is None


def test_check_reports_fresh_stale_edited_unverified(tmp_path):
    reference = tmp_path / "model.py"
    reference.write_text("ref\n")
    target = tmp_path / "model_hiera.py"
    target.write_text(proposal.render(_header(), "ref\n\nclass ModelNew: pass\n"))
    fresh = proposal.check(str(target))
    assert not (fresh.stale or fresh.hand_edited or fresh.unverified or fresh.reference_missing)

    target.write_text(target.read_text() + "# tweak\n")
    assert proposal.check(str(target)).hand_edited

    reference.write_text("ref changed\n")
    assert proposal.check(str(target)).stale

    reference.unlink()
    status = proposal.check(str(target))
    assert status.reference_missing and status.stale

    target.write_text(proposal.render(_header(verification=""), "body\n"))
    assert proposal.check(str(target)).unverified


def test_one_final_newline_more_or_less_is_not_a_hand_edit(tmp_path):
    # Editors save with their own final-newline habits (Vim's 'fixeol' after an LSP edit adds one).
    (tmp_path / "model.py").write_text("ref\n")
    target = tmp_path / "model_hiera.py"
    text = proposal.render(_header(), "ref\n\nclass ModelNew: pass\n")
    for saved in (text + "\n", text[:-1], text.replace("\n", "\r\n") + "\r\n"):
        target.write_bytes(saved.encode())
        assert not proposal.check(str(target)).hand_edited, repr(saved[-4:])
    target.write_text(text + "\n\n")
    assert proposal.check(str(target)).hand_edited
    assert proposal.same_up_to_final_newline(text, text + "\n") and not proposal.same_up_to_final_newline(text, text + " ")


def test_candidate_part_locates_the_candidate():
    body = proposal.assemble_body("import torch\nclass Model: pass\n", "pytorch.x", "pytorch", "class ModelNew(Model):\n    pass\n")
    source, line = proposal.candidate_part(body)
    assert source.startswith("class ModelNew(Model):")
    assert body.splitlines()[line - 1] == "class ModelNew(Model):"
