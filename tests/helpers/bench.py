"""Helpers for the bench tests: task records built by hand, and reading results and reports."""

from __future__ import annotations

import base64
import csv
import io
import json
from html.parser import HTMLParser
from pathlib import Path

from hiera_core.bench.record import TaskRecord

REPO = Path(__file__).resolve().parents[2]


def record(task_id: str, level: int | None, outcome: str = "proposal", correct: bool = True,
           eager: float | None = None, compile_: float | None = None, best_mode: tuple[str, float] | None = None,
           **fields) -> TaskRecord:
    """A record with speedups derived from the given times, as the runner derives them (the
    proposal's pairing timed the reference as `eager`); `best_mode`: a compile mode faster than
    the default, (mode, ms)."""
    hiera_ms = fields.pop("hiera_ms", None)
    modes = {"default": compile_} if compile_ else {}
    if best_mode:
        modes[best_mode[0]] = best_mode[1]
    best = min(modes, key=modes.get) if modes else None
    made = TaskRecord(id=task_id, level=level, path=f"/suite/{task_id}", outcome=outcome, correct=correct,
                      eager_ms=eager, compile_ms=compile_, compile_modes_ms=modes, best_compile_mode=best,
                      best_compile_ms=modes.get(best), hiera_ms=hiera_ms, paired_eager_ms=eager, **fields)
    if correct and outcome != "error" and eager and hiera_ms:
        made.speedup_eager = eager / hiera_ms
        made.speedup_compile = compile_ / hiera_ms if compile_ else None
        made.speedup_best_compile = modes[best] / hiera_ms if best else None
    return made


class ReportCells(HTMLParser):
    """Collects report.html's machine-readable cells: per task row and for the summary tables,
    {key: value} from data-key / data-value, and the embedded images."""

    def __init__(self, text: str):
        super().__init__()
        self.tasks: dict[str, dict] = {}
        self.summary: dict[str, object] = {}
        self.images: list[bytes] = []
        self._row: str | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "tr":
            # a task's row, or a row of its details (candidates, regions: keys "<field>.<index>.<key>")
            self._row = attributes.get("data-task") or attributes.get("data-task-detail")
            if self._row is not None:
                self.tasks.setdefault(self._row, {})
        elif tag == "td" and "data-key" in attributes:
            value = json.loads(attributes["data-value"])
            if attributes["data-key"].startswith("summary."):
                self.summary[attributes["data-key"]] = value
            else:
                self.tasks[self._row][attributes["data-key"]] = value
        elif tag == "img":
            prefix = "data:image/png;base64,"
            assert attributes["src"].startswith(prefix)
            self.images.append(base64.b64decode(attributes["src"][len(prefix):]))


def csv_rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def csv_value(cell: str, like):
    """A results.csv cell read back as the type of the JSON value it stands for."""
    if cell == "":
        return "" if isinstance(like, str) else None
    if isinstance(like, bool):
        return cell == "true"
    if isinstance(like, (int, float)) and not isinstance(like, bool):
        return type(like)(float(cell)) if isinstance(like, int) else float(cell)
    return cell


def assert_outputs_agree(folder: Path) -> dict:
    """results.json, results.csv and report.html hold the same numbers; returns the JSON."""
    data = json.loads((folder / "results.json").read_text())
    rows = {row["id"]: row for row in csv_rows((folder / "results.csv").read_text())}
    cells = ReportCells((folder / "report.html").read_text())
    assert len(cells.images) == 3 and all(image.startswith(b"\x89PNG") for image in cells.images)
    assert set(rows) == set(cells.tasks) == {task["id"] for task in data["tasks"]}
    for task in data["tasks"]:
        row = rows[task["id"]]
        for key, value in task.items():
            if key in row and key != "best_speedup_by_sample":  # a list: compared below
                assert csv_value(row[key], value) == value, (task["id"], key, row[key], value)
        for key, value in (task["error"] or {}).items():
            assert row[f"error_{key}"] == value
        for key, value in task["environment"].items():
            assert csv_value(row[f"env_{key}"], value) == value, (task["id"], key)
        assert row["best_speedup_by_sample"] == ";".join("" if value is None else repr(value)
                                                         for value in task["best_speedup_by_sample"])
        for key, value in cells.tasks[task["id"]].items():
            assert value == _at(task, key), (task["id"], key)
    expected = {}
    for name, group in {"overall": data["summary"]["overall"], **data["summary"]["levels"]}.items():
        expected.update(_flatten(group, f"summary.{name}"))
    assert cells.summary and all(cells.summary[key] == expected[key] for key in cells.summary), \
        {key: (value, expected.get(key)) for key, value in cells.summary.items() if expected.get(key) != value}
    for name in ("overall", *data["summary"]["levels"]):
        for measure in ("validity", "fast_p.eager.0", "fast_p.eager.1", "fast_p.eager.1.5", "fast_p.eager.2",
                        "fast_p.compile.1", "geomean.eager", "geomean.compile", "median.eager", "median.compile"):
            assert f"summary.{name}.{measure}" in cells.summary
    return data


def _at(task: dict, key: str):
    """The record's value at a report key: a field, or "<field>.<index>.<key>" in one of its lists."""
    if key in task:
        return task[key]
    field, index, inner = key.split(".", 2)
    return task[field][int(index)][inner]


def _flatten(value, prefix: str) -> dict:
    if not isinstance(value, dict):
        return {prefix: value}
    flat = {}
    for key, inner in value.items():
        flat.update(_flatten(inner, f"{prefix}.{key}"))
    return flat


def check_task_module(path: Path, prefix: str):
    """Load a KernelBench-format task file and check what every bench task must hold: a docstring
    saying what it computes, float32 inputs and output, the same output under the same seed, and
    an FX trace that computes what eager does. Returns the module."""
    import importlib.util

    import torch
    import torch.fx

    spec = importlib.util.spec_from_file_location(f"{prefix}_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__doc__ and len(module.__doc__.strip()) > 40, "say what the task computes and why"

    def build():
        torch.manual_seed(0)
        model = module.Model(*module.get_init_inputs()).eval()
        torch.manual_seed(0)
        return model, module.get_inputs()

    model, inputs = build()
    assert inputs and all(isinstance(x, torch.Tensor) and x.dtype == torch.float32 for x in inputs)
    with torch.no_grad():
        first = model(*inputs)
        again_model, again_inputs = build()
        second = again_model(*again_inputs)
    assert isinstance(first, torch.Tensor) and first.dtype == torch.float32 and first.isfinite().all()
    assert torch.equal(first, second), "the same seed must give the same output"
    traced = torch.fx.symbolic_trace(model)
    with torch.no_grad():
        assert torch.equal(traced(*inputs), first), "the FX trace must compute what eager computes"
    return module
